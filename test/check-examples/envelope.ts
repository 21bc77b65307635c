// Examples of the envelope checks (src/checks/envelope.ts).
import type { Examples } from './support.js';

const list = (data: unknown[], nextLink: unknown = null): unknown => ({ message: 'Job offers found.', data, meta: { next_link: nextLink } });

export const examples: Examples = {
  'json-body': [
    { verdict: 'pass', title: 'A list answered with a JSON body.', operationId: 'listJobOffers', answer: { status: 200, body: list([]) } },
    { verdict: 'fail', title: 'A list answered with an HTML page.', operationId: 'listJobOffers', answer: { status: 200, text: '<html><body>OK</body></html>', headers: { 'content-type': 'text/html' } } },
  ],
  'content-type-json': [
    { verdict: 'pass', title: 'The body is labelled application/json with a charset.', operationId: 'listJobOffers', answer: { status: 200, body: list([]), headers: { 'content-type': 'application/json; charset=utf-8' } } },
    { verdict: 'fail', title: 'A JSON body labelled text/plain.', operationId: 'listJobOffers', answer: { status: 200, body: list([]), headers: { 'content-type': 'text/plain' } } },
  ],
  'message-string': [
    { verdict: 'pass', title: 'The body carries message as a string.', operationId: 'listJobOffers', answer: { status: 200, body: list([]) } },
    { verdict: 'fail', title: 'The body has data but no message.', operationId: 'listJobOffers', answer: { status: 200, body: { data: [], meta: { next_link: null } } } },
  ],
  'data-is-array': [
    { verdict: 'pass', title: 'A successful list carries data as an array.', operationId: 'listJobOffers', answer: { status: 200, body: list([]) } },
    { verdict: 'fail', title: 'A successful list carries data as an object.', operationId: 'listJobOffers', answer: { status: 200, body: { message: 'ok', data: {}, meta: { next_link: null } } } },
  ],
  'error-body': [
    { verdict: 'pass', title: 'A 400 with message and errors.', operationId: 'listJobOffers', answer: { status: 400, body: { message: 'Bad filter.', errors: [{ message: 'reference is not a string', data: null }] } } },
    { verdict: 'fail', title: 'A 400 with a message but no errors.', operationId: 'listJobOffers', answer: { status: 400, body: { message: 'Bad filter.' } } },
  ],
  'error-items': [
    { verdict: 'pass', title: 'Each error item has message and data.', operationId: 'listJobOffers', answer: { status: 400, body: { message: 'Bad filter.', errors: [{ message: 'reference is not a string', data: { field: 'reference' } }] } } },
    { verdict: 'fail', title: 'An error item without data.', operationId: 'listJobOffers', answer: { status: 400, body: { message: 'Bad filter.', errors: [{ message: 'reference is not a string' }] } } },
  ],
  'next-link': [
    { verdict: 'pass', title: 'The last page says so with meta.next_link null.', operationId: 'listJobOffers', answer: { status: 200, body: list([]) } },
    { verdict: 'fail', title: 'A list without meta.next_link.', operationId: 'listJobOffers', answer: { status: 200, body: { message: 'ok', data: [], meta: {} } } },
  ],
};
