// The batch partial-success oracle: which variant came back, and whether data holds exactly the valid items.
import { resourceInfo } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import type { Exchange } from '../core/results.js';
import { walkRecords } from './lists.js';
import { bodyObject, carries, defineCheck, fail, judge, pass, show, valuesAt, type CheckContext } from './registry.js';

/**
 * The batch-create variant of an answer (1..4), told by the body's shape alone: which status goes with which body is
 * not shown, so a 4xx carrying data and errors is variant 3 and a 2xx carrying only errors is variant 4 (whether the
 * status fits is HTTP.STATUS_MATCHES_BODY's question, a SHOULD). Or a description of why it is none of them.
 */
export function batchVariant(ex: Exchange): { variant: 1 | 2 | 3 | 4 } | { none: string } {
  const body = bodyObject(ex);
  if (!body) return { none: `the body is ${show(ex.response?.json ?? ex.response?.body?.slice(0, 60))}, not an object` };
  const hasData = carries(body, 'data');
  const hasErrors = carries(body, 'errors');
  if (typeof body['message'] !== 'string') return { none: 'message is missing or not a string' };
  if (hasData && !Array.isArray(body['data'])) return { none: `data is ${show(body['data'], 60)}, not an array` };
  if (hasErrors && !Array.isArray(body['errors'])) return { none: `errors is ${show(body['errors'], 60)}, not an array` };
  if (hasData && hasErrors) return { variant: 3 };
  if (hasData) return { variant: 2 };
  // An error body says what failed: errors without data and without a single error item is neither it nor {message}.
  if (hasErrors) return (body['errors'] as unknown[]).length > 0 ? { variant: 4 } : { none: 'errors is empty and there is no data: neither {message} only nor an error body' };
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
  description: 'When the answer has data (whatever its status), it lists exactly the valid items sent (matched by identity field), no invalid one.',
  clauses: ['BATCH.DATA_LISTS_CREATED'],
  run: (ctx) => {
    const data = bodyObject(ctx.exchange)?.['data'];
    if (!Array.isArray(data) || !ctx.operation) return [];
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
  description: 'A batch with valid and invalid items answers, with whatever status, one body holding data and a non-empty errors (testing rule 2); what was stored is read back by store-holds.',
  clauses: ['BATCH.PARTIAL_SUCCESS'],
  run: (ctx) => {
    const body = bodyObject(ctx.exchange);
    const status = ctx.exchange.response?.status;
    const { valid, invalid } = sentItems(ctx);
    const data = body?.['data'];
    const errors = body?.['errors'];
    const hasData = Array.isArray(data);
    const hasErrors = Array.isArray(errors) && errors.length > 0;
    if (hasData && hasErrors) return [pass('BATCH.PARTIAL_SUCCESS', `status ${status}: data (${data.length} record(s)) and ${errors.length} error item(s) in one body`)];
    const sent = `${valid.length} valid and ${invalid.length} invalid items`;
    const shape = !body ? 'no JSON object' : hasErrors ? 'errors but no data' : hasData ? `data but ${Array.isArray(errors) ? 'an empty errors' : 'no errors'}` : 'neither data nor errors';
    const reading = hasErrors && !hasData ? ' (an error body: the batch reads as refused whole, all-or-nothing)' : hasData ? ' (the invalid items are not reported)' : '';
    return [fail('BATCH.PARTIAL_SUCCESS', `status ${status} for ${sent}: the body has ${shape}${reading}; a partially failing batch returns data and errors in one body`)];
  },
});

export const storeHolds = defineCheck({
  id: 'store-holds',
  description: 'Read back from the store (every record of the step, every page): each value of `present` is found at `field` (a dotted path, `*` for every array item), at least one of `anyOf` when given, and none of `absent`.',
  clauses: ['BATCH.PARTIAL_SUCCESS', 'REQUEST.REQUIRED_ON_CREATE', 'REQUEST.OPTIONAL_FIELDS_ACCEPTED', 'AUTH.BEARER_REQUIRED', 'WRITE.READ_BACK'],
  run: (ctx) => {
    const clause = typeof ctx.args['clause'] === 'string' ? ctx.args['clause'] : 'BATCH.PARTIAL_SUCCESS';
    const field = String(ctx.args['field']);
    const found = new Set(walkRecords(ctx.stepExchanges).flatMap((r) => valuesAt(r, field)).map((v) => String(v)));
    const present = [ctx.args['present'] ?? []].flat().map(String);
    const absent = [ctx.args['absent'] ?? []].flat().map(String);
    const anyOf = [ctx.args['anyOf'] ?? []].flat().map(String);
    const missing = [...present.filter((v) => !found.has(v)), ...(anyOf.length && !anyOf.some((v) => found.has(v)) ? [`one of ${anyOf.join(', ')}`] : [])];
    const stored = absent.filter((v) => found.has(v));
    const status = ctx.exchange.response?.status;
    const problems = [
      missing.length ? `${missing.length} item(s) that were valid are not stored (${field} ${show(missing.slice(0, 3))})` : '',
      stored.length ? `${stored.length} item(s) that were invalid are stored (${field} ${show(stored.slice(0, 3))})` : '',
    ].filter(Boolean);
    return [problems.length ? fail(clause, `read back (status ${status}): ${problems.join('; ')}`)
      : pass(clause, `read back: ${present.length} stored as sent${absent.length ? `, ${absent.length} not stored` : ''}`)];
  },
});
