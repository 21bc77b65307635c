// Authentication: refusals, the token response, and the conventions of RFC 6749/6750 around them.
import { schemaErrors, SCHEMA_BASE } from '../spec/index.js';
import { bodyObject, defineCheck, judge, judgesEndpoint, outcomeOf, show } from './registry.js';

export const refused = defineCheck({
  id: 'refused',
  description: 'The request is refused, read from the body first (an error body is a refusal whatever the status; the status only where the body is silent), and no records are disclosed.',
  clauses: ['AUTH.BEARER_REQUIRED', 'AUTH.CREDENTIALS_VERIFIED', 'AUTH.EXPIRED_TOKEN_REFUSED'],
  run: ({ exchange, args }) => {
    const clause = typeof args['clause'] === 'string' ? args['clause'] : 'AUTH.BEARER_REQUIRED';
    const status = exchange.response?.status ?? 0;
    const data = bodyObject(exchange)?.['data'];
    const disclosed = Array.isArray(data) && data.length > 0;
    const token = bodyObject(exchange)?.['access_token'];
    const issued = typeof token === 'string' && token.length > 0;
    return [judge(clause, outcomeOf(exchange) === 'failure' && !disclosed && !issued, `refused with status ${status}`,
      `accepted with status ${status}${disclosed ? ` and ${data.length} record(s) in data` : ''}${issued ? ' and an access_token' : ''}`)];
  },
});

export const tokenIssued = defineCheck({
  id: 'token-issued',
  description: 'A 2xx token answer carries access_token (string), token_type (string) and expires_in (number).',
  clauses: ['AUTH.TOKEN_ISSUED'],
  global: true,
  // A refusal in an error body is no token answer, whatever its status.
  appliesTo: (ctx) => judgesEndpoint('AUTH.TOKEN_ISSUED', ctx) && outcomeOf(ctx.exchange) === 'success',
  run: ({ exchange }) => {
    const errors = schemaErrors(`${SCHEMA_BASE}token.json#/$defs/response`, exchange.response?.json);
    return [judge('AUTH.TOKEN_ISSUED', errors.length === 0, 'token response complete', `token response: ${errors.join('; ')}`)];
  },
});

export const wwwAuthenticate = defineCheck({
  id: 'www-authenticate',
  description: 'A 401 answer carries WWW-Authenticate with the Bearer scheme.',
  clauses: ['AUTH.WWW_AUTHENTICATE'],
  run: ({ exchange }) => {
    if (exchange.response?.status !== 401) return [];
    const header = exchange.response.headers['www-authenticate'];
    // RFC 9110 §11.6.1 allows a list of challenges (and repeated headers arrive joined by ", "): Bearer may be any.
    return [judge('AUTH.WWW_AUTHENTICATE', /(?:^|,)\s*bearer(?:\s|,|$)/i.test(header ?? ''), `WWW-Authenticate: ${header}`,
      `401 without a Bearer challenge (WWW-Authenticate is ${header === undefined ? 'missing' : show(header)})`)];
  },
});

export const tokenTypeBearer = defineCheck({
  id: 'token-type-bearer',
  description: 'token_type is "Bearer", compared case-insensitively.',
  clauses: ['AUTH.TOKEN_TYPE_BEARER'],
  run: ({ exchange }) => {
    const type = bodyObject(exchange)?.['token_type'];
    return [judge('AUTH.TOKEN_TYPE_BEARER', typeof type === 'string' && type.toLowerCase() === 'bearer', `token_type ${show(type)}`,
      `token_type is ${show(type)}, not Bearer`)];
  },
});

export const tokenNoStore = defineCheck({
  id: 'token-no-store',
  description: 'The token answer carries Cache-Control: no-store.',
  clauses: ['AUTH.TOKEN_NO_STORE'],
  run: ({ exchange }) => {
    const header = exchange.response?.headers['cache-control'];
    return [judge('AUTH.TOKEN_NO_STORE', /\bno-store\b/i.test(header ?? ''), `Cache-Control: ${header}`,
      `Cache-Control is ${header === undefined ? 'missing' : show(header)}; a token answer must not be cached`)];
  },
});

export const refusalStatus = defineCheck({
  id: 'refusal-status',
  description: 'A refusal for missing or invalid credentials is 401 (403 is recorded and let pass).',
  clauses: ['AUTH.REFUSAL_STATUS'],
  run: ({ exchange }) => {
    const status = exchange.response?.status ?? 0;
    if (status < 300) return [];
    return [judge('AUTH.REFUSAL_STATUS', status === 401 || status === 403, `refused with ${status}`,
      `refused with ${status}; RFC 6750 §3.1 answers missing or invalid credentials with 401`)];
  },
});
