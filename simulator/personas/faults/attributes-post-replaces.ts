import { dataRecords, isSuccess } from '../support.js';
import type { Persona } from '../types.js';

export const attributesPostReplaces: Persona = {
  name: 'attributes-post-replaces',
  kind: 'fault',
  description: 'POST /ats/job-offers/{id}/attributes replaces the attributes the job offer had with the ones sent, instead of adding them.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId !== 'batchCreateJobOfferAttributes' || !isSuccess(res)) return;
      const reference = ctx.params['id'] ?? '';
      const offer = ctx.store.jobOffers.get(reference);
      if (!offer) return;
      const added = dataRecords(res).map((r) => ({ name: String(r['name']), value: r['value'] as string }));
      ctx.store.jobOffers.replace(reference, { ...offer, attributes: added });
    },
  },
};
