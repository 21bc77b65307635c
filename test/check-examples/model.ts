// Examples of the model checks (src/checks/model.ts), whose arguments exploration writes from its model.
import type { Examples } from './support.js';

const step = { id: 12, recorded_at: '2026-01-05T09:00:00Z', job_offer_reference: 'JO-1', candidate_ats_id: 'C-1', step: 'applied', application_ats_id: 'A-1', source: 'Crème 𝄞 <b>' };
const wanted = (fields: Record<string, unknown>, clause = 'WRITE.READ_BACK'): Record<string, unknown> => ({ resource: 'application-step', expect: [{ match: { id: 12 }, fields, clause, why: 'step 2 (PATCH)' }] });
const list = (data: unknown[]): unknown => ({ message: 'OK.', data, meta: { next_link: null } });

export const examples: Examples = {
  'records-are': [
    { verdict: 'pass', title: 'The step reads back with every value the model holds, an absent field as absent.', operationId: 'getApplicationStep', args: wanted({ source: 'Crème 𝄞 <b>', subsidiary: null, recorded_at: '2026-01-05T09:00:00.000Z' }), answer: { status: 200, body: { message: 'OK.', data: [step] } } },
    { verdict: 'fail', title: 'A value the PATCH did not carry changed.', operationId: 'getApplicationStep', args: wanted({ source: 'Crème 𝄞 <b>' }, 'WRITE.PATCH_PARTIAL'), answer: { status: 200, body: { message: 'OK.', data: [{ ...step, source: null }] } } },
    { verdict: 'fail', title: 'The GET answers another step than the one named.', operationId: 'getApplicationStep', args: wanted({ step: 'applied' }), answer: { status: 200, body: { message: 'OK.', data: [{ ...step, id: 13 }] } } },
    { verdict: 'pass', title: 'A filtered list holds exactly the model\'s activities.', operationId: 'listJobboardActivities', args: { resource: 'jobboard-activity', only: 'FILTER.REFERENCE', expect: [{ match: { id: 1 }, fields: { count: 0 }, clause: 'WRITE.READ_BACK', why: 'create' }] }, answer: { status: 200, body: list([{ id: 1, count: 0 }]) } },
    { verdict: 'fail', title: 'A filtered list holds an activity the filter should leave out.', operationId: 'listJobboardActivities', args: { resource: 'jobboard-activity', only: 'FILTER.REFERENCE', expect: [{ match: { id: 1 }, fields: { count: 0 }, clause: 'WRITE.READ_BACK', why: 'create' }] }, answer: { status: 200, body: list([{ id: 1, count: 0 }, { id: 2, count: 3 }]) } },
  ],
  'write-accepted': [
    { verdict: 'pass', title: 'A PATCH with text in every script is accepted.', operationId: 'patchApplicationStep', args: { clause: 'REQUEST.OPTIONAL_FIELDS_ACCEPTED' }, answer: { status: 200, body: { message: 'OK.', data: [step] } } },
    { verdict: 'fail', title: 'The same PATCH is refused with an error body.', operationId: 'patchApplicationStep', args: { clause: 'REQUEST.OPTIONAL_FIELDS_ACCEPTED' }, answer: { status: 422, body: { message: 'Invalid.', errors: [{ message: 'source: bad characters', data: null }] } } },
  ],
};
