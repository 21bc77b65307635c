// Examples of the refused-write checks (src/checks/refusals.ts).
import type { Examples } from './support.js';

const sent = [{ reference: 'JO-1', title: 'Backend engineer' }, { reference: 'JO-2' }];
const batch = { operationId: 'batchCreateJobboardJobOffers', requestBody: sent, invalid: [1] };
const offer = { publication_at: '2026-01-05T09:00:00Z', title: 'Backend engineer', reference: 'JO-1' };

export const examples: Examples = {
  'not-created': [
    { verdict: 'pass', title: 'Only the valid item is listed as created.', ...batch, answer: { status: 207, body: { message: 'Partly created.', data: [{ id: 1, reference: 'JO-1' }], errors: [{ message: 'title is required', data: { index: 1 } }] } } },
    { verdict: 'fail', title: 'The item without its required title is listed as created.', ...batch, answer: { status: 201, body: { message: 'Created.', data: [{ id: 1, reference: 'JO-1' }, { id: 2, reference: 'JO-2' }] } } },
  ],
  'errors-reported': [
    { verdict: 'pass', title: 'A 200 for a batch of invalid items carries the errors.', operationId: 'batchCreateJobboardJobOffers', answer: { status: 200, body: { message: 'Nothing created.', errors: [{ message: 'title is required', data: { index: 0 } }] } } },
    { verdict: 'fail', title: 'A 200 for a batch of invalid items says nothing of them.', operationId: 'batchCreateJobboardJobOffers', answer: { status: 200, body: { message: 'Done.', data: [] } } },
  ],
  unchanged: [
    { verdict: 'pass', title: 'After a refused PUT the job offer still holds its title.', operationId: 'getJobOffer', args: { record: { reference: 'JO-1', title: 'Backend engineer' } }, answer: { status: 200, body: { message: 'ok', data: [offer] } } },
    { verdict: 'fail', title: 'The refused PUT changed the title after all.', operationId: 'getJobOffer', args: { record: { reference: 'JO-1', title: 'Backend engineer' } }, answer: { status: 200, body: { message: 'ok', data: [{ ...offer, title: '' }] } } },
  ],
  'not-applied': [
    { verdict: 'pass', title: 'After a PATCH refused for want of a token, the title is as it was.', operationId: 'getJobOffer', args: { write: { title: 'Retitled' }, record: offer }, answer: { status: 200, body: { message: 'ok', data: [offer] } } },
    { verdict: 'fail', title: 'The PATCH refused for want of a token was applied all the same.', operationId: 'getJobOffer', args: { write: { title: 'Retitled' }, record: offer }, answer: { status: 200, body: { message: 'ok', data: [{ ...offer, title: 'Retitled' }] } } },
  ],
  'not-stored': [
    { verdict: 'pass', title: 'Read back: the refused item is nowhere.', operationId: 'listJobOffers', args: { field: 'reference', values: ['JO-2'] }, answer: { status: 200, body: { message: 'ok', data: [offer], meta: { next_link: null } } } },
    { verdict: 'fail', title: 'Read back: the refused item was stored.', operationId: 'listJobOffers', args: { field: 'reference', values: ['JO-2'] }, answer: { status: 200, body: { message: 'ok', data: [offer, { reference: 'JO-2' }], meta: { next_link: null } } } },
  ],
};
