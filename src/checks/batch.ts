// The batch partial-success oracle: which variant came back, and whether data holds exactly the valid items.
import { resourceInfo } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import type { Exchange } from '../core/results.js';
import { bodyObject, defineCheck, fail, isSuccess, judge, pass, show, type CheckContext } from './registry.js';

/** The batch-create variant of an answer (1..4), or a description of why it is none of them. */
export function batchVariant(ex: Exchange): { variant: 1 | 2 | 3 | 4 } | { none: string } {
  const body = bodyObject(ex);
  const status = ex.response?.status ?? 0;
  if (!body) return { none: `the body is ${show(ex.response?.json ?? ex.response?.body?.slice(0, 60))}, not an object` };
  const hasData = 'data' in body;
  const hasErrors = 'errors' in body;
  if (typeof body['message'] !== 'string') return { none: 'message is missing or not a string' };
  if (!isSuccess(ex)) return hasErrors && Array.isArray(body['errors']) ? { variant: 4 } : { none: `status ${status} without an errors array` };
  if (hasData && !Array.isArray(body['data'])) return { none: `data is ${show(body['data'], 60)}, not an array` };
  if (hasErrors && !Array.isArray(body['errors'])) return { none: `errors is ${show(body['errors'], 60)}, not an array` };
  if (hasData && hasErrors) return { variant: 3 };
  if (hasData) return { variant: 2 };
  if (hasErrors) return { none: 'a 2xx answer with errors but no data' };
  return { variant: 1 };
}

export const batchVariantCheck = defineCheck({
  id: 'batch-variant',
  description: 'The answer is one of the four batch-create variants.',
  clauses: ['BATCH.VARIANT'],
  run: ({ exchange }) => {
    const v = batchVariant(exchange);
    return [judge('BATCH.VARIANT', 'variant' in v, `variant ${'variant' in v ? v.variant : ''}`,
      `status ${exchange.response?.status}: ${'none' in v ? v.none : ''}, which is none of the four variants`)];
  },
});

/** The items the step sent, split by whether they were made valid or invalid. */
function sentItems(ctx: CheckContext): { valid: Record<string, unknown>[]; invalid: Record<string, unknown>[] } {
  const items = Array.isArray(ctx.requestBody) ? (ctx.requestBody as Record<string, unknown>[]) : [];
  return {
    valid: items.filter((i) => !ctx.invalidItems.has(i)),
    invalid: items.filter((i) => ctx.invalidItems.has(i)),
  };
}

export const batchListsCreated = defineCheck({
  id: 'batch-lists-created',
  description: 'When the answer has data, it lists exactly the valid items sent (matched by identity field), no invalid one.',
  clauses: ['BATCH.DATA_LISTS_CREATED'],
  run: (ctx) => {
    const data = bodyObject(ctx.exchange)?.['data'];
    if (!isSuccess(ctx.exchange) || !Array.isArray(data) || !ctx.operation) return [];
    const identity = resourceInfo(ctx.operation.resource).identity;
    const { valid, invalid } = sentItems(ctx);
    const got = data.map((r) => readPath(r, identity));
    const missing = valid.map((i) => i[identity]).filter((k) => !got.includes(k));
    const intruders = invalid.map((i) => i[identity]).filter((k) => k !== undefined && got.includes(k));
    const unknown = got.filter((k) => ![...valid, ...invalid].some((i) => i[identity] === k));
    const problems = [
      missing.length ? `${missing.length} valid item(s) missing from data (${identity} ${show(missing.slice(0, 3))})` : '',
      intruders.length ? `${intruders.length} invalid item(s) listed as created (${show(intruders.slice(0, 3))})` : '',
      unknown.length ? `${unknown.length} record(s) in data match no item sent (${show(unknown.slice(0, 3))})` : '',
      data.length !== valid.length && !missing.length && !unknown.length ? `data has ${data.length} records for ${valid.length} valid items` : '',
    ].filter(Boolean);
    return [problems.length ? fail('BATCH.DATA_LISTS_CREATED', problems.join('; '))
      : pass('BATCH.DATA_LISTS_CREATED', `data lists the ${valid.length} valid item(s) exactly`)];
  },
});

export const partialSuccess = defineCheck({
  id: 'partial-success',
  description: 'A batch with valid and invalid items answers 2xx with data and a non-empty errors in one body.',
  clauses: ['BATCH.PARTIAL_SUCCESS'],
  run: (ctx) => {
    const body = bodyObject(ctx.exchange);
    const status = ctx.exchange.response?.status;
    const { valid, invalid } = sentItems(ctx);
    if (!isSuccess(ctx.exchange)) {
      return [fail('BATCH.PARTIAL_SUCCESS', `status ${status}: the whole batch of ${valid.length} valid and ${invalid.length} invalid items was refused (all-or-nothing)`)];
    }
    const errors = body?.['errors'];
    const problems = [
      Array.isArray(body?.['data']) ? '' : 'data is missing',
      Array.isArray(errors) && errors.length > 0 ? '' : `errors is ${Array.isArray(errors) ? 'empty' : 'missing'}`,
    ].filter(Boolean);
    return [problems.length ? fail('BATCH.PARTIAL_SUCCESS', `status ${status} for ${valid.length} valid and ${invalid.length} invalid items: ${problems.join('; ')}`)
      : pass('BATCH.PARTIAL_SUCCESS', `data and ${(errors as unknown[]).length} error item(s) in one body`)];
  },
});
