// Examples of the authentication checks (src/checks/auth.ts).
import type { Examples } from './support.js';

const refusal = { message: 'Authentication required.', errors: [{ message: 'no bearer token', data: null }] };
const token = { access_token: 'tok-example', token_type: 'Bearer', expires_in: 3600 };

export const examples: Examples = {
  refused: [
    { verdict: 'pass', title: 'A list without a token is refused with an error body.', operationId: 'listJobOffers', answer: { status: 401, body: refusal } },
    { verdict: 'fail', title: 'A list without a token is answered with records.', operationId: 'listJobOffers', answer: { status: 200, body: { message: 'ok', data: [{ reference: 'JO-1' }], meta: { next_link: null } } } },
  ],
  'token-issued': [
    { verdict: 'pass', title: 'The token answer carries access_token, token_type and expires_in.', operationId: 'requestToken', answer: { status: 200, body: token } },
    { verdict: 'fail', title: 'The token answer has no expires_in.', operationId: 'requestToken', answer: { status: 200, body: { access_token: 'tok-example', token_type: 'Bearer' } } },
  ],
  'www-authenticate': [
    { verdict: 'pass', title: 'A 401 with a Bearer challenge.', operationId: 'listJobOffers', answer: { status: 401, body: refusal, headers: { 'www-authenticate': 'Bearer realm="rdx"' } } },
    { verdict: 'fail', title: 'A 401 without WWW-Authenticate.', operationId: 'listJobOffers', answer: { status: 401, body: refusal } },
  ],
  'token-type-bearer': [
    { verdict: 'pass', title: 'token_type bearer, in any case.', operationId: 'requestToken', answer: { status: 200, body: { ...token, token_type: 'bearer' } } },
    { verdict: 'fail', title: 'token_type mac.', operationId: 'requestToken', answer: { status: 200, body: { ...token, token_type: 'mac' } } },
  ],
  'token-no-store': [
    { verdict: 'pass', title: 'The token answer carries Cache-Control: no-store.', operationId: 'requestToken', answer: { status: 200, body: token, headers: { 'cache-control': 'no-store' } } },
    { verdict: 'fail', title: 'The token answer may be cached.', operationId: 'requestToken', answer: { status: 200, body: token, headers: { 'cache-control': 'max-age=60' } } },
  ],
  'refusal-status': [
    { verdict: 'pass', title: 'A missing token refused with 401.', operationId: 'listJobOffers', answer: { status: 401, body: refusal } },
    { verdict: 'fail', title: 'A missing token refused with 400.', operationId: 'listJobOffers', answer: { status: 400, body: refusal } },
  ],
};
