// HTTP conventions (RFC 9110): the status agrees with the body, and client mistakes are not server errors.
import { bodyObject, carries, defineCheck, isFailure, isSuccess, judge, show } from './registry.js';

export const statusMatchesBody = defineCheck({
  id: 'status-matches-body',
  description: 'An error body (errors, no data) comes with 4xx/5xx; a 4xx/5xx does not carry records in data, except a batch creation that carries errors with them (a partial success, whose status is not shown).',
  clauses: ['HTTP.STATUS_MATCHES_BODY'],
  global: true,
  appliesTo: (ctx) => !!bodyObject(ctx.exchange) && !!ctx.operation && ctx.operation.endpoint !== 1,
  run: ({ exchange, operation }) => {
    const body = bodyObject(exchange) ?? {};
    const status = exchange.response?.status ?? 0;
    const errorShaped = carries(body, 'errors') && !carries(body, 'data');
    const records = Array.isArray(body['data']) ? (body['data'] as unknown[]).length : 0;
    // data and errors together in batch creation are a partial success: part of the request failed and part did not,
    // so RFC 9110 gives no class that fits better than another (207, 200, 201, 400 and 422 are all seen for it).
    const partial = records > 0 && Array.isArray(body['errors']) && (body['errors'] as unknown[]).length > 0;
    if (partial && operation?.kind === 'batchCreate') return [];
    if (isSuccess(exchange)) {
      return [judge('HTTP.STATUS_MATCHES_BODY', !errorShaped, `status ${status} with a success body`,
        `status ${status} with an error body (${show(body['message'], 80)})`)];
    }
    if (isFailure(exchange)) {
      return [judge('HTTP.STATUS_MATCHES_BODY', records === 0, `status ${status} with an error body`,
        `status ${status} but data carries ${records} record(s)`)];
    }
    return [];
  },
});

export const noServerError = defineCheck({
  id: 'no-server-error',
  description: 'The answer is not a 5xx.',
  clauses: ['HTTP.NO_SERVER_ERROR'],
  global: true,
  appliesTo: (ctx) => !!ctx.exchange.response && !!ctx.operation,
  run: ({ exchange }) => {
    const status = exchange.response?.status ?? 0;
    return [judge('HTTP.NO_SERVER_ERROR', status < 500, `status ${status}`,
      `status ${status}: a server error (${show(bodyObject(exchange)?.['message'] ?? exchange.response?.body.slice(0, 80), 100)})`)];
  },
});
