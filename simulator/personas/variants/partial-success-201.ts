import type { Persona } from '../types.js';

export const partialSuccess201: Persona = {
  name: 'partial-success-201',
  kind: 'variant',
  description: 'A partly valid batch stores its valid items and answers {message, data, errors} with status 201 Created instead of 207.',
  interprets: ['STATUS_CODES', 'STATUS_CODE_BODY_MAPPING'],
  declared: { statusCodes: { partialSuccess: 201 } },
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'partialSuccess') res.status = 201;
    },
  },
};
