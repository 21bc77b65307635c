import { errorReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const allOrNothingBatch: Persona = {
  name: 'all-or-nothing-batch',
  kind: 'fault',
  description: 'A batch with one invalid item is refused whole (400, nothing created) instead of creating the valid items.',
  breaks: ['BATCH.PARTIAL_SUCCESS'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'batchCreate') || res.outcome !== 'partialSuccess') return;
      ctx.rollback();
      const errors = Array.isArray(res.body['errors']) ? (res.body['errors'] as { message?: unknown }[]) : [];
      return errorReply('validation', 'The batch was refused: it holds invalid items.', errors.map((e) => String(e.message)));
    },
  },
};
