// Examples of the filter and walk checks (src/checks/lists.ts).
import type { Answer, Examples } from './support.js';

const page = (data: unknown[], nextLink: string | null = null): Answer => ({ status: 200, body: { message: 'Activities found.', data, meta: { next_link: nextLink } } });
const activity = (id: number, ref: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id, job_offer_reference: ref, status: 'published', recorded_at: '2026-01-10T09:00:00Z', ...extra });
const filtered = { operationId: 'listJobboardActivities', request: 'GET /jobboard/activities?job_offer_reference=JO-1' };

export const examples: Examples = {
  'all-match': [
    { verdict: 'pass', title: 'Every record has the reference filtered on.', ...filtered, args: { field: 'job_offer_reference', in: ['JO-1'] }, answer: page([activity(1, 'JO-1'), activity(2, 'JO-1')]) },
    { verdict: 'fail', title: 'A record of another reference slipped through the filter.', ...filtered, args: { field: 'job_offer_reference', in: ['JO-1'] }, answer: page([activity(1, 'JO-1'), activity(2, 'JO-2')]) },
  ],
  'contains-all': [
    { verdict: 'pass', title: 'The records made for the filter all come back.', ...filtered, args: { field: 'id', values: [1, 2] }, answer: page([activity(1, 'JO-1'), activity(2, 'JO-1')]) },
    { verdict: 'fail', title: 'One record that matches the filter is missing.', ...filtered, args: { field: 'id', values: [1, 2] }, answer: page([activity(1, 'JO-1')]) },
  ],
  'none-of': [
    { verdict: 'pass', title: 'No record outside the filter comes back.', ...filtered, args: { field: 'job_offer_reference', values: ['JO-2'] }, answer: page([activity(1, 'JO-1')]) },
    { verdict: 'fail', title: 'A record outside the filter comes back.', ...filtered, args: { field: 'job_offer_reference', values: ['JO-2'] }, answer: page([activity(1, 'JO-1'), activity(2, 'JO-2')]) },
  ],
  'walk-exactly-once': [
    {
      verdict: 'pass', title: 'Two pages, the last ending with next_link null, each record once.', operationId: 'listJobboardActivities', args: { field: 'id' },
      answer: page([activity(1, 'JO-1'), activity(2, 'JO-1')], '/jobboard/activities?cursor=2'), pages: [page([activity(3, 'JO-1')])],
    },
    {
      verdict: 'fail', title: 'The second page serves a record of the first again.', operationId: 'listJobboardActivities', args: { field: 'id' },
      answer: page([activity(1, 'JO-1'), activity(2, 'JO-1')], '/jobboard/activities?cursor=2'), pages: [page([activity(2, 'JO-1')])],
    },
  ],
  'date-within': [
    { verdict: 'pass', title: 'Every record falls within the date bounds.', operationId: 'listJobboardActivities', request: 'GET /jobboard/activities?recorded_at_from=2026-01-01', args: { field: 'recorded_at', min: '2026-01-01', max: '2026-01-31' }, answer: page([activity(1, 'JO-1')]) },
    { verdict: 'fail', title: 'A record from March comes back for January.', operationId: 'listJobboardActivities', request: 'GET /jobboard/activities?recorded_at_from=2026-01-01', args: { field: 'recorded_at', min: '2026-01-01', max: '2026-01-31' }, answer: page([activity(1, 'JO-1', { recorded_at: '2026-03-01T09:00:00Z' })]) },
  ],
  'several-references': [
    { verdict: 'pass', title: 'A filter on two references returns records of both, and no other.', operationId: 'listJobboardActivities', request: 'GET /jobboard/activities?job_offer_reference=JO-1,JO-2', args: { field: 'job_offer_reference', values: ['JO-1', 'JO-2'] }, answer: page([activity(1, 'JO-1'), activity(2, 'JO-2')]) },
    { verdict: 'fail', title: 'A filter on two references returns the records of one of them only.', operationId: 'listJobboardActivities', request: 'GET /jobboard/activities?job_offer_reference=JO-1,JO-2', args: { field: 'job_offer_reference', values: ['JO-1', 'JO-2'] }, answer: page([activity(1, 'JO-1')]) },
  ],
};
