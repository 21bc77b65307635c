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
  kind: 'fault',
  description: 'ATS job offers in responses carry a numeric id besides their reference, and so do the records of attribute creation, which the spec says carry none.',
  breaks: ['RECORD.ATS_NO_ID'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.resource === 'job-offer') {
        for (const record of dataRecords(res)) if (typeof record['reference'] === 'string') record['id'] = idOf(record['reference']);
      }
      if (ctx.operation?.operationId === 'batchCreateJobOfferAttributes') {
        for (const record of dataRecords(res)) if (typeof record['name'] === 'string') record['id'] = idOf(record['name']);
      }
    },
  },
};
