import type { Persona } from '../types.js';
import { appendIdLog, idLogPath } from '../id-logs.js';
import { numericJobOfferId, numericJobOfferIds } from './numeric-job-offer-ids.js';

/**
 * The id log of each resource a batch creates, by the profile key that names it (idSources.<key>.file):
 * $RDX_SIM_ID_LOG_DIR/rdx-simulator-<resource>-ids.jsonl, the same after a restart; else per process (../id-logs.ts).
 */
export const ID_LOGS = {
  atsJobOffer: idLogPath('ats-job-offer'),
  applicationStep: idLogPath('application-step'),
  jobboardActivity: idLogPath('jobboard-activity'),
  jobboardJobOffer: idLogPath('jobboard-job-offer'),
};

/** Per batch create: its log, and the fields of a created record that name it in the request (spec/schemas x-rdx-id-key). */
const LOGGED: Record<string, { log: string; key: string[] }> = {
  batchCreateJobOffers: { log: ID_LOGS.atsJobOffer, key: ['reference'] },
  batchCreateApplicationSteps: { log: ID_LOGS.applicationStep, key: ['application_ats_id', 'step', 'recorded_at'] },
  batchCreateJobboardActivities: { log: ID_LOGS.jobboardActivity, key: ['job_offer_reference', 'status', 'recorded_at'] },
  batchCreateJobboardJobOffers: { log: ID_LOGS.jobboardJobOffer, key: ['reference'] },
};

export const messageOnlyWithIdLogs: Persona = {
  name: 'message-only-with-id-logs',
  kind: 'variant',
  description: 'A batch whose items are all created answers {message} only (variant 1), and {id} of an ATS job offer is a number never shown: no answer shows an id. The service appends {<key fields>, id} for every record it creates to one JSON-lines id log per resource, which the profile names as idSources.*.file: $RDX_SIM_ID_LOG_DIR/rdx-simulator-{ats-job-offer,application-step,jobboard-activity,jobboard-job-offer}-ids.jsonl (the same after a restart; without RDX_SIM_ID_LOG_DIR, per process in the temp directory). rdx simulate prints them.',
  interprets: ['BATCH_VARIANT', 'ATS_JOB_OFFER_ID'],
  declared: { batchVariant: 'message-only', atsJobOfferId: 'fixtures' },
  profile: { idSources: Object.fromEntries(Object.entries(ID_LOGS).map(([key, file]) => [key, { file }])) },
  atsJobOfferId: numericJobOfferId,
  hooks: {
    beforeHandler: numericJobOfferIds.hooks.beforeHandler,
    afterHandler(ctx, res) {
      const logged = LOGGED[ctx.operation?.operationId ?? ''];
      const data = res.body['data'];
      if (!logged || !Array.isArray(data)) return;
      // Written before the answer leaves, as a service that logs in the same transaction would.
      const lines = data.flatMap((record) => {
        const r = (record ?? {}) as Record<string, unknown>;
        const id = ctx.operation?.operationId === 'batchCreateJobOffers' ? numericJobOfferId(ctx.store, String(r['reference'])) : r['id'];
        if (id === undefined) return [];
        return [`${JSON.stringify({ ...Object.fromEntries(logged.key.map((f) => [f, r[f]])), id: Number(id) })}\n`];
      });
      if (lines.length) appendIdLog(logged.log, lines.join(''));
      if (res.outcome === 'created') res.body = { message: res.body['message'] };
    },
  },
};
