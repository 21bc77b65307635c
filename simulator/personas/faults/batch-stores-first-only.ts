import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

export const batchStoresFirstOnly: Persona = {
  name: 'batch-stores-first-only',
  kind: 'fault',
  description: 'An all-valid batch of ATS job offers lists every item as created, but only the first is stored.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId !== 'batchCreateJobOffers' || res.outcome !== 'created') return;
      for (const record of dataRecords(res).slice(1)) {
        if (typeof record['reference'] === 'string') ctx.store.jobOffers.remove(record['reference']);
      }
    },
  },
};
