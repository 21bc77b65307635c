import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

/** A stable number for a reference (FNV-1a), so one job offer shows the same id in every answer. */
function idOf(reference: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < reference.length; i++) hash = Math.imul(hash ^ reference.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export const jobOfferIdsInResponses: Persona = {
  name: 'job-offer-ids-in-responses',
  kind: 'variant',
  description: 'ATS job offers in responses carry a numeric id besides their reference (an extra member; {id} stays the reference).',
  interprets: ['ATS_JOB_OFFER_RESPONSE_ID'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.resource !== 'job-offer') return;
      for (const record of dataRecords(res)) if (typeof record['reference'] === 'string') record['id'] = idOf(record['reference']);
    },
  },
};
