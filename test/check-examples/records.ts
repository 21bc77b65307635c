// Examples of the record checks (src/checks/records.ts).
import type { Examples } from './support.js';

const offer = { publication_at: '2026-01-05T09:00:00Z', title: 'Backend engineer', reference: 'JO-1', subsidiary: 'Paris' };
const user = { mail: 'ada@example.test', first_name: 'Ada', last_name: 'Lovelace', subsidiary: 'Paris', status: 'active' };
const ok = (data: unknown[]): unknown => ({ message: 'OK.', data });

export const examples: Examples = {
  'record-schema': [
    { verdict: 'pass', title: 'A job offer with the fields and types of its schema.', operationId: 'getJobOffer', answer: { status: 200, body: ok([offer]) } },
    { verdict: 'fail', title: 'A job offer whose title is a number.', operationId: 'getJobOffer', answer: { status: 200, body: ok([{ ...offer, title: 42 }]) } },
  ],
  'users-nested': [
    { verdict: 'pass', title: 'PUT /users answers data as an array of arrays of users.', operationId: 'replaceUsers', answer: { status: 200, body: ok([[user]]) } },
    { verdict: 'fail', title: 'PUT /users answers a flat array of users.', operationId: 'replaceUsers', answer: { status: 200, body: ok([user]) } },
  ],
  'users-not-repeated': [
    { verdict: 'pass', title: 'The second identical PUT lists each user once, as the first did.', operationId: 'replaceUsers', args: { values: [user.mail], before: [[user]] }, answer: { status: 200, body: ok([[user]]) } },
    { verdict: 'fail', title: 'The second identical PUT lists the user twice: the array was added, not replaced.', operationId: 'replaceUsers', args: { values: [user.mail], before: [[user]] }, answer: { status: 200, body: ok([[user, user]]) } },
  ],
  'ats-no-id': [
    { verdict: 'pass', title: 'An ATS job offer without an id member.', operationId: 'getJobOffer', answer: { status: 200, body: ok([offer]) } },
    { verdict: 'fail', title: 'An ATS job offer that carries an id.', operationId: 'getJobOffer', answer: { status: 200, body: ok([{ ...offer, id: 7 }]) } },
  ],
  'attribute-value-only': [
    { verdict: 'pass', title: 'The update of one attribute answers its value only.', operationId: 'patchJobOfferAttribute', answer: { status: 200, body: ok([{ value: 'senior' }]) } },
    { verdict: 'fail', title: 'The update of one attribute answers name and value.', operationId: 'patchJobOfferAttribute', answer: { status: 200, body: ok([{ name: 'level', value: 'senior' }]) } },
  ],
  'application-step-ids': [
    { verdict: 'pass', title: 'An application step read back with a numeric id.', operationId: 'getApplicationStep', answer: { status: 200, body: ok([{ id: 12, step: 'applied' }]) } },
    { verdict: 'fail', title: 'An application step read back without an id.', operationId: 'getApplicationStep', answer: { status: 200, body: ok([{ step: 'applied' }]) } },
  ],
  'created-ids': [
    { verdict: 'pass', title: 'Created jobboard activities carry numeric ids.', operationId: 'batchCreateJobboardActivities', answer: { status: 201, body: ok([{ id: 1 }, { id: 2 }]) } },
    { verdict: 'fail', title: 'A created jobboard activity whose id is a string.', operationId: 'batchCreateJobboardActivities', answer: { status: 201, body: ok([{ id: '1' }]) } },
    { verdict: 'fail', title: 'Every activity of a batch carries the id of the first.', operationId: 'batchCreateJobboardActivities', answer: { status: 201, body: ok([{ id: 7 }, { id: 7 }, { id: 7 }]) } },
  ],
  'round-trip': [
    { verdict: 'pass', title: 'A title with a combining mark reads back as sent.', operationId: 'listJobOffers', args: { accepted: 'success', record: { reference: 'JO-1', title: 'Caf\u0065\u0301' } }, answer: { status: 200, body: { message: 'ok', data: [{ ...offer, title: 'Caf\u0065\u0301' }], meta: { next_link: null } } } },
    { verdict: 'pass', title: 'A 10,000-character title refused with an error body: a limit, nothing to compare.', operationId: 'listJobOffers', args: { accepted: 'failure', record: { reference: 'JO-1', title: 'x'.repeat(10_000) } }, answer: { status: 200, body: { message: 'ok', data: [], meta: { next_link: null } } } },
    { verdict: 'fail', title: 'The accepted title comes back normalised (NFC): another code point sequence.', operationId: 'listJobOffers', args: { accepted: 'success', record: { reference: 'JO-1', title: 'Caf\u0065\u0301' } }, answer: { status: 200, body: { message: 'ok', data: [{ ...offer, title: 'Caf\u00e9' }], meta: { next_link: null } } } },
  ],
  'record-matches': [
    { verdict: 'pass', title: 'The job offer read back holds what was written.', operationId: 'getJobOffer', args: { record: { reference: 'JO-1', title: 'Backend engineer' } }, answer: { status: 200, body: ok([offer]) } },
    { verdict: 'fail', title: 'The job offer read back holds another title.', operationId: 'getJobOffer', args: { record: { reference: 'JO-1', title: 'Frontend engineer' } }, answer: { status: 200, body: ok([offer]) } },
  ],
  'fields-cleared': [
    { verdict: 'pass', title: 'A field left out of the PUT reads back as null.', operationId: 'getJobOffer', args: { fields: ['subsidiary_ats_id'] }, answer: { status: 200, body: ok([{ ...offer, subsidiary_ats_id: null }]) } },
    { verdict: 'fail', title: 'A field left out of the PUT still holds its old value.', operationId: 'getJobOffer', args: { fields: ['subsidiary_ats_id'] }, answer: { status: 200, body: ok([{ ...offer, subsidiary_ats_id: 'S-1' }]) } },
  ],
};
