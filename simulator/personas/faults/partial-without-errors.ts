import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const partialWithoutErrors: Persona = {
  name: 'partial-without-errors',
  kind: 'fault',
  description: 'A partly valid batch creates the valid items but answers {message, data} only: the refused items go unreported.',
  breaks: ['BATCH.PARTIAL_SUCCESS'],
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'batchCreate') && res.outcome === 'partialSuccess') delete res.body['errors'];
    },
  },
};
