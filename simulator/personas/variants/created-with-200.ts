import type { Persona } from '../types.js';

export const createdWith200: Persona = {
  name: 'created-with-200',
  kind: 'variant',
  description: 'Batch creation answers 200 OK instead of 201 Created, and a partly valid batch 200 instead of 207.',
  interprets: ['STATUS_CODES'],
  declared: { statusCodes: { created: 200, partialSuccess: 200 } },
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'created' || res.outcome === 'partialSuccess') res.status = 200;
    },
  },
};
