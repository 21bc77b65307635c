import type { Persona } from '../types.js';

export const messageOnlyBatch: Persona = {
  name: 'message-only-batch',
  kind: 'variant',
  description: 'A batch whose items are all created answers {message} only (variant 1): no data, so no ids in the answer.',
  interprets: ['BATCH_VARIANT'],
  declared: { batchVariant: 'message-only' },
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.kind === 'batchCreate' && res.outcome === 'created') res.body = { message: res.body['message'] };
    },
  },
};
