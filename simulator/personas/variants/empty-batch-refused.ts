import { errorReply } from '../../envelope.js';
import type { Persona } from '../types.js';

export const emptyBatchRefused: Persona = {
  name: 'empty-batch-refused',
  kind: 'variant',
  description: 'An empty array sent to a batch endpoint is refused with 400 and the error body.',
  interprets: ['EMPTY_BATCH'],
  hooks: {
    beforeHandler(ctx) {
      if (ctx.operation?.kind === 'batchCreate' && Array.isArray(ctx.body) && ctx.body.length === 0) {
        return errorReply('validation', 'The batch is empty: send at least one item.');
      }
    },
  },
};
