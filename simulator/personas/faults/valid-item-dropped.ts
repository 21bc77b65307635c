import { checkBody } from '../../validate.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const validItemDropped: Persona = {
  name: 'valid-item-dropped',
  kind: 'fault',
  description: 'In a batch of two or more valid items the last one is silently neither created nor listed.',
  breaks: ['BATCH.DATA_LISTS_CREATED'],
  hooks: {
    // Only all-valid batches, so that what a mixed batch reports stays true.
    beforeHandler(ctx) {
      const schema = ctx.operation?.requestSchema;
      if (!kindIs(ctx, 'batchCreate') || !schema || !Array.isArray(ctx.body)) return;
      const items = ctx.body as unknown[];
      if (items.length >= 2 && items.every((item) => checkBody(schema, item).ok)) ctx.body = items.slice(0, -1);
    },
  },
};
