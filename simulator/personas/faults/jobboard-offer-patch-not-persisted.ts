import { isSuccess } from '../support.js';
import type { Persona } from '../types.js';

export const jobboardOfferPatchNotPersisted: Persona = {
  name: 'jobboard-offer-patch-not-persisted',
  kind: 'fault',
  description: 'PATCH of a jobboard job offer answers the patched record but does not keep the change (there is no GET to see it).',
  breaks: ['WRITE.PATCH_PARTIAL'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId === 'patchJobboardJobOffer' && isSuccess(res)) ctx.rollback();
    },
  },
};
