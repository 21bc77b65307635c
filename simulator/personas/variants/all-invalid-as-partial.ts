import { reply } from '../../envelope.js';
import type { Persona } from '../types.js';

export const allInvalidAsPartial: Persona = {
  name: 'all-invalid-as-partial',
  kind: 'variant',
  description: 'A batch whose items are all invalid answers 200 {message, data: [], errors} (variant 3), not an error body.',
  interprets: ['BATCH_VARIANT'],
  hooks: {
    afterHandler(ctx, res) {
      // Only refusals of the items themselves: a body that is no array at all is still an error.
      if (ctx.operation?.kind !== 'batchCreate' || ctx.stage !== 'handler' || res.outcome !== 'validation') return;
      return reply('ok', { message: res.body['message'], data: [], errors: res.body['errors'] });
    },
  },
};
