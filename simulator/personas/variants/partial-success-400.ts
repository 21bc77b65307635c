import type { Persona } from '../types.js';

export const partialSuccess400: Persona = {
  name: 'partial-success-400',
  kind: 'variant',
  description: 'A partly valid batch stores its valid items and answers {message, data, errors} with status 400 Bad Request instead of 207.',
  interprets: ['STATUS_CODES', 'STATUS_CODE_BODY_MAPPING'],
  declared: { statusCodes: { partialSuccess: 400 } },
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'partialSuccess') res.status = 400;
    },
  },
};
