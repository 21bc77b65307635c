import type { Persona } from '../types.js';

export const partialSuccess422: Persona = {
  name: 'partial-success-422',
  kind: 'variant',
  description: 'A partly valid batch stores its valid items and answers {message, data, errors} with status 422 Unprocessable Content instead of 207.',
  interprets: ['STATUS_CODES', 'STATUS_CODE_BODY_MAPPING'],
  declared: { statusCodes: { partialSuccess: 422 } },
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'partialSuccess') res.status = 422;
    },
  },
};
