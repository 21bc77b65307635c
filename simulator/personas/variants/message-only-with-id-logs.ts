import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Persona } from '../types.js';
import { numericJobOfferId, numericJobOfferIds } from './numeric-job-offer-ids.js';

/**
 * The id log of each resource a batch creates, by the profile key that names it (idSources.<key>.file): in
 * $RDX_SIM_ID_LOG_DIR, else the temp directory, one set per process (simulators of parallel test runs never share).
 */
const dir = process.env['RDX_SIM_ID_LOG_DIR'] ?? tmpdir();
export const ID_LOGS = {
  atsJobOffer: join(dir, `rdx-simulator-ats-job-offer-ids-${process.pid}.jsonl`),
  applicationStep: join(dir, `rdx-simulator-application-step-ids-${process.pid}.jsonl`),
  jobboardActivity: join(dir, `rdx-simulator-jobboard-activity-ids-${process.pid}.jsonl`),
  jobboardJobOffer: join(dir, `rdx-simulator-jobboard-job-offer-ids-${process.pid}.jsonl`),
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
  description: 'A batch whose items are all created answers {message} only (variant 1), and {id} of an ATS job offer is a number never shown: no answer shows an id. The service appends {<key fields>, id} for every record it creates to one JSON-lines id log per resource, which the profile names as idSources.*.file.',
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
      if (lines.length) appendFileSync(logged.log, lines.join(''));
      if (res.outcome === 'created') res.body = { message: res.body['message'] };
    },
  },
};
