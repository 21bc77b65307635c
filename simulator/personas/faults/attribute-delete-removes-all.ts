import { isSuccess } from '../support.js';
import type { Persona } from '../types.js';

export const attributeDeleteRemovesAll: Persona = {
  name: 'attribute-delete-removes-all',
  kind: 'fault',
  description: 'DELETE /ats/job-offers/{id}/attributes/{name} removes every attribute of the job offer, not only the one named.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId !== 'deleteJobOfferAttribute' || !isSuccess(res)) return;
      const reference = ctx.params['id'] ?? '';
      const offer = ctx.store.jobOffers.get(reference);
      if (offer) ctx.store.jobOffers.replace(reference, { ...offer, attributes: [] });
    },
  },
};
