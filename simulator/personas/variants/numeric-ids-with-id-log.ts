import { resolve } from 'node:path';
import type { Persona } from '../types.js';
import { appendIdLog, idLogPath } from '../id-logs.js';
import { numericJobOfferId, numericJobOfferIds } from './numeric-job-offer-ids.js';

/**
 * Where this variant appends {"reference", "id"} lines: $RDX_SIM_ID_LOG, else
 * $RDX_SIM_ID_LOG_DIR/rdx-simulator-job-offer-ids.jsonl (both the same after a restart), else per process (../id-logs.ts).
 */
export const JOB_OFFER_ID_LOG = process.env['RDX_SIM_ID_LOG'] ? resolve(process.env['RDX_SIM_ID_LOG']) : idLogPath('job-offer');

export const numericIdsWithIdLog: Persona = {
  name: 'numeric-ids-with-id-log',
  kind: 'variant',
  description: '{id} of an ATS job offer is a number the service assigns and never shows in a response; the service appends {reference, id} to a JSON-lines id log that the profile names as idSources.atsJobOffer.file: $RDX_SIM_ID_LOG, else $RDX_SIM_ID_LOG_DIR/rdx-simulator-job-offer-ids.jsonl (the same after a restart; without either, per process in the temp directory). rdx simulate prints it.',
  interprets: ['ATS_JOB_OFFER_ID'],
  declared: { atsJobOfferId: 'fixtures' },
  profile: { idSources: { atsJobOffer: { file: JOB_OFFER_ID_LOG } } },
  atsJobOfferId: numericJobOfferId,
  hooks: {
    beforeHandler: numericJobOfferIds.hooks.beforeHandler,
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId !== 'batchCreateJobOffers' || res.status >= 300 || !Array.isArray(ctx.body)) return;
      const lines = (ctx.body as { reference?: unknown }[]).flatMap((item) => {
        const id = typeof item?.reference === 'string' && ctx.store.jobOffers.has(item.reference) ? numericJobOfferId(ctx.store, item.reference) : undefined;
        return id ? [`${JSON.stringify({ reference: item.reference, id: Number(id) })}\n`] : [];
      });
      if (lines.length) appendIdLog(JOB_OFFER_ID_LOG, lines.join(''));
    },
  },
};
