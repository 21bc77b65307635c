import { errorReply } from '../../envelope.js';
import type { Persona } from '../types.js';

const MAX_ITEMS = 500;

export const batchLimit500: Persona = {
  name: 'batch-limit-500',
  kind: 'variant',
  description: `A batch of more than ${MAX_ITEMS} items is refused whole with 413 (the spec shows no limit, so one may exist).`,
  interprets: ['LIMITS'],
  hooks: {
    beforeHandler(ctx) {
      if (ctx.operation?.kind === 'batchCreate' && Array.isArray(ctx.body) && ctx.body.length > MAX_ITEMS) {
        return errorReply('payloadTooLarge', `A batch holds at most ${MAX_ITEMS} items; this one has ${ctx.body.length}.`);
      }
    },
  },
};
