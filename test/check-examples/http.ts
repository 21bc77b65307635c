// Examples of the HTTP convention checks (src/checks/http.ts).
import type { Examples } from './support.js';

export const examples: Examples = {
  'status-matches-body': [
    { verdict: 'pass', title: 'A 400 with an error body.', operationId: 'listJobOffers', answer: { status: 400, body: { message: 'Bad filter.', errors: [{ message: 'bad date', data: null }] } } },
    { verdict: 'fail', title: 'A 200 with an error body.', operationId: 'listJobOffers', answer: { status: 200, body: { message: 'Bad filter.', errors: [{ message: 'bad date', data: null }] } } },
  ],
  'no-server-error': [
    { verdict: 'pass', title: 'A bad filter answered 400.', operationId: 'listJobOffers', answer: { status: 400, body: { message: 'Bad filter.', errors: [] } } },
    { verdict: 'fail', title: 'A bad filter answered 500.', operationId: 'listJobOffers', answer: { status: 500, body: { message: 'Internal error.', errors: [] } } },
  ],
};
