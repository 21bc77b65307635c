// The common envelope, judged on every exchange of every judged case.
import { clause as clauseOf } from '../spec/index.js';
import { bodyObject, carries, defineCheck, fail, isFailure, judge, judgesEndpoint, outcomeOf, pass, show } from './registry.js';

export const jsonBody = defineCheck({
  id: 'json-body',
  description: 'The response body parses as JSON.',
  clauses: ['ENVELOPE.JSON_BODY'],
  global: true,
  appliesTo: (ctx) => !!ctx.exchange.response && !!ctx.operation,
  run: ({ exchange }) => [
    judge('ENVELOPE.JSON_BODY', exchange.response?.json !== undefined, 'the body is JSON',
      `status ${exchange.response?.status}: ${exchange.response?.bodyProblem ?? 'the body is not JSON'}; body starts ${show(exchange.response?.body.slice(0, 80))}`),
  ],
});

export const contentTypeJson = defineCheck({
  id: 'content-type-json',
  description: 'The response is labelled application/json (parameters such as charset allowed).',
  clauses: ['ENVELOPE.CONTENT_TYPE'],
  global: true,
  appliesTo: (ctx) => !!ctx.exchange.response && !!ctx.operation && ctx.exchange.response.body.length > 0,
  run: ({ exchange }) => {
    const type = exchange.response?.headers['content-type'];
    return [judge('ENVELOPE.CONTENT_TYPE', /^application\/json\s*(;|$)/i.test(type ?? ''), `Content-Type ${type}`,
      `Content-Type is ${type === undefined ? 'missing' : show(type)}, not application/json`)];
  },
});

export const messageString = defineCheck({
  id: 'message-string',
  description: 'Every body of the service (all but the token endpoint) carries message as a string.',
  clauses: ['ENVELOPE.MESSAGE'],
  global: true,
  appliesTo: (ctx) => !!bodyObject(ctx.exchange) && judgesEndpoint('ENVELOPE.MESSAGE', ctx),
  run: ({ exchange }) => {
    const message = bodyObject(exchange)?.['message'];
    return [judge('ENVELOPE.MESSAGE', typeof message === 'string', 'message is a string',
      `status ${exchange.response?.status}: message is ${message === undefined ? 'missing' : `${typeof message} ${show(message)}`}`)];
  },
});

export const dataIsArray = defineCheck({
  id: 'data-is-array',
  description: 'A success body of a data-returning operation carries data as an array (batch: when data is present).',
  clauses: ['ENVELOPE.DATA_IS_ARRAY'],
  global: true,
  // Batch variant 1 ({message} only) carries no data; every other data-returning success must.
  appliesTo: (ctx) => outcomeOf(ctx.exchange) === 'success' && !!bodyObject(ctx.exchange) && judgesEndpoint('ENVELOPE.DATA_IS_ARRAY', ctx) &&
    (ctx.operation?.kind !== 'batchCreate' || carries(bodyObject(ctx.exchange) ?? {}, 'data')),
  run: ({ exchange }) => {
    const data = bodyObject(exchange)?.['data'];
    return [judge('ENVELOPE.DATA_IS_ARRAY', Array.isArray(data), 'data is an array',
      `status ${exchange.response?.status}: data is ${data === undefined ? 'missing' : data === null ? 'null' : `${typeof data} ${show(data)}`}, not an array`)];
  },
});

export const errorBody = defineCheck({
  id: 'error-body',
  description: 'A failing request (4xx/5xx) returns a body with message and errors; for the token endpoint, the same body.',
  clauses: ['ENVELOPE.ERROR_BODY', 'AUTH.TOKEN_FAILURE'],
  global: true,
  // A failure by its status, or by its body (an error body that came with a 2xx is judged like any other).
  appliesTo: (ctx) => (isFailure(ctx.exchange) || outcomeOf(ctx.exchange) === 'failure') && !!ctx.operation,
  run: ({ exchange, operation }) => {
    const clause = operation && clauseOf('AUTH.TOKEN_FAILURE').endpoints.includes(operation.endpoint) ? 'AUTH.TOKEN_FAILURE' : 'ENVELOPE.ERROR_BODY';
    const body = bodyObject(exchange);
    const status = exchange.response?.status;
    if (!body) return [fail(clause, `status ${status}: the failure body is not a JSON object (${show(exchange.response?.body.slice(0, 80))})`)];
    const problems: string[] = [];
    if (typeof body['message'] !== 'string') problems.push(`message is ${body['message'] === undefined ? 'missing' : 'not a string'}`);
    if (!Array.isArray(body['errors'])) problems.push(`errors is ${body['errors'] === undefined ? 'missing' : 'not an array'}`);
    return [problems.length ? fail(clause, `status ${status}: ${problems.join('; ')}`) : pass(clause, 'message and errors present')];
  },
});

export const errorItems = defineCheck({
  id: 'error-items',
  description: 'Every error item has message (string) and data.',
  clauses: ['ENVELOPE.ERROR_ITEM'],
  global: true,
  appliesTo: (ctx) => Array.isArray(bodyObject(ctx.exchange)?.['errors']) && !!ctx.operation,
  run: ({ exchange }) => {
    const items = bodyObject(exchange)?.['errors'] as unknown[];
    const bad = items.flatMap((item, i) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return [`errors[${i}] is ${show(item)}, not an object`];
      const o = item as Record<string, unknown>;
      const p: string[] = [];
      if (typeof o['message'] !== 'string') p.push(`errors[${i}].message is ${o['message'] === undefined ? 'missing' : 'not a string'}`);
      if (!('data' in o)) p.push(`errors[${i}].data is missing`);
      return p;
    });
    return [bad.length ? fail('ENVELOPE.ERROR_ITEM', bad.slice(0, 5).join('; ')) : pass('ENVELOPE.ERROR_ITEM', `${items.length} error items well formed`)];
  },
});

export const nextLink = defineCheck({
  id: 'next-link',
  description: 'A list response carries meta.next_link (a string, or the end value on the last page).',
  clauses: ['ENVELOPE.NEXT_LINK'],
  global: true,
  appliesTo: (ctx) => outcomeOf(ctx.exchange) === 'success' && !!bodyObject(ctx.exchange) && judgesEndpoint('ENVELOPE.NEXT_LINK', ctx),
  run: ({ exchange }) => {
    const meta = bodyObject(exchange)?.['meta'];
    const ok = !!meta && typeof meta === 'object' && 'next_link' in meta &&
      ['string', 'object'].includes(typeof (meta as Record<string, unknown>)['next_link']) &&
      ((meta as Record<string, unknown>)['next_link'] === null || typeof (meta as Record<string, unknown>)['next_link'] === 'string');
    return [judge('ENVELOPE.NEXT_LINK', ok, 'meta.next_link present',
      `meta is ${show(meta)}: meta.next_link ${meta && typeof meta === 'object' && 'next_link' in meta ? 'is neither a string nor null' : 'is missing'}`)];
  },
});
