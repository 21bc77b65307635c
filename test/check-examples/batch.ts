// Examples of the batch checks (src/checks/batch.ts).
import type { Examples } from './support.js';

const sent = [{ reference: 'JO-1', title: 'Backend engineer' }, { reference: 'JO-2', title: 42 }];
const batch = { operationId: 'batchCreateJobboardJobOffers', requestBody: sent, invalid: [1] };
const partial = { message: 'Some items were not created.', data: [{ id: 1, reference: 'JO-1', title: 'Backend engineer' }], errors: [{ message: 'title must be a string', data: { index: 1 } }] };

export const examples: Examples = {
  'batch-variant': [
    { verdict: 'pass', title: 'A body with message, data and errors: variant 3.', ...batch, answer: { status: 207, body: partial } },
    { verdict: 'fail', title: 'data is an object, which no variant has.', ...batch, answer: { status: 201, body: { message: 'Created.', data: { id: 1 } } } },
  ],
  'batch-lists-created': [
    { verdict: 'pass', title: 'data lists the valid item and not the invalid one.', ...batch, answer: { status: 207, body: partial } },
    { verdict: 'fail', title: 'data lists the invalid item as created too.', ...batch, answer: { status: 201, body: { message: 'Created.', data: [{ id: 1, reference: 'JO-1' }, { id: 2, reference: 'JO-2' }] } } },
  ],
  'partial-success': [
    { verdict: 'pass', title: 'One body with the created item in data and the refused one in errors.', ...batch, answer: { status: 207, body: partial } },
    { verdict: 'fail', title: 'An error body only: the valid item reads as refused too.', ...batch, answer: { status: 400, body: { message: 'Invalid batch.', errors: [{ message: 'title must be a string', data: { index: 1 } }] } } },
  ],
  'store-holds': [
    { verdict: 'pass', title: 'Read back: the valid item is stored, the invalid one is not.', operationId: 'listJobOffers', args: { field: 'reference', present: ['JO-1'], absent: ['JO-2'] }, answer: { status: 200, body: { message: 'ok', data: [{ reference: 'JO-1' }], meta: { next_link: null } } } },
    { verdict: 'fail', title: 'Read back: the invalid item was stored.', operationId: 'listJobOffers', args: { field: 'reference', present: ['JO-1'], absent: ['JO-2'] }, answer: { status: 200, body: { message: 'ok', data: [{ reference: 'JO-1' }, { reference: 'JO-2' }], meta: { next_link: null } } } },
  ],
};
