// Examples of the pagination checks (src/checks/pages.ts).
import type { Answer, Examples } from './support.js';

const page = (ids: number[], nextLink: string | null = null): Answer => ({ status: 200, body: { message: 'Activities found.', data: ids.map((id) => ({ id })), meta: { next_link: nextLink } } });

export const examples: Examples = {
  'multi-page': [
    { verdict: 'pass', title: 'The walk reached a second page with records.', operationId: 'listJobboardActivities', answer: page([1, 2], '/jobboard/activities?cursor=2'), pages: [page([3])] },
    { verdict: 'fail', title: 'Everything came on one page, so the page size is not seen.', operationId: 'listJobboardActivities', answer: page([1, 2, 3]) },
  ],
  'walk-no-repeats': [
    { verdict: 'pass', title: 'Three records over two pages, none twice.', operationId: 'listJobboardActivities', args: { field: 'id' }, answer: page([1, 2], '/jobboard/activities?cursor=2'), pages: [page([3])] },
    { verdict: 'fail', title: 'A record comes on both pages.', operationId: 'listJobboardActivities', args: { field: 'id' }, answer: page([1, 2], '/jobboard/activities?cursor=2'), pages: [page([2])] },
  ],
  'next-link-same-origin': [
    { verdict: 'pass', title: "meta.next_link points to the target's own origin.", operationId: 'listJobboardActivities', answer: page([1], 'https://api.example.test/jobboard/activities?cursor=2') },
    { verdict: 'fail', title: 'meta.next_link points to another host.', operationId: 'listJobboardActivities', answer: page([1], 'https://elsewhere.example/jobboard/activities?cursor=2') },
  ],
};
