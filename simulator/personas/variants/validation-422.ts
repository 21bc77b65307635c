import type { Persona } from '../types.js';

export const validation422: Persona = {
  name: 'validation-422',
  kind: 'variant',
  description: 'Requests refused for their content (missing or wrongly typed fields) get 422 Unprocessable Content instead of 400.',
  interprets: ['STATUS_CODES'],
  declared: { statusCodes: { validation: 422 } },
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'validation') res.status = 422;
    },
  },
};
