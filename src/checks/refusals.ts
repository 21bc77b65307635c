// What a refused write must leave behind: nothing created, the refusal reported, the stored record as it was.
import { resourceInfo } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import { compareRecord, sameValue } from './records.js';
import { bodyObject, defineCheck, fail, isSuccess, judge, pass, show, type CheckContext } from './registry.js';

const clauseArg = (ctx: CheckContext, fallback: string): string => (typeof ctx.args['clause'] === 'string' ? ctx.args['clause'] : fallback);

export const notCreated = defineCheck({
  id: 'not-created',
  description: 'No item of a batch made invalid by $invalid is listed as created in data, whatever the status (a body without data lists none; not-stored reads the store).',
  clauses: ['REQUEST.REQUIRED_ON_CREATE', 'REQUEST.BODY_TYPES'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'REQUEST.REQUIRED_ON_CREATE');
    const status = ctx.exchange.response?.status;
    if (!Array.isArray(ctx.requestBody) || !ctx.operation) return [];
    const data = bodyObject(ctx.exchange)?.['data'];
    if (!Array.isArray(data)) return [pass(clause, `status ${status} without data: no item is listed as created`)];
    const items = ctx.requestBody as Record<string, unknown>[];
    const invalid = items.filter((i) => ctx.invalidItems.has(i));
    const validCount = items.length - invalid.length;
    const identity = resourceInfo(ctx.operation.resource).identity;
    // Loose comparison: an implementation that stored 12345 as "12345" still created the item.
    const listed = invalid.filter((i) => i[identity] !== undefined && data.some((r) => String(readPath(r, identity)) === String(i[identity])));
    // An item sent without its identity field can only be told apart by the count of records in data.
    const anonymous = invalid.filter((i) => i[identity] === undefined).length;
    const surplus = anonymous > 0 ? data.length - validCount : 0;
    const problems = [
      listed.length ? `${listed.length} invalid item(s) listed as created (${identity} ${show(listed.map((i) => i[identity]).slice(0, 3))})` : '',
      surplus > 0 ? `data holds ${data.length} record(s) for ${validCount} valid item(s): ${surplus} invalid item(s) without ${identity} were created` : '',
    ].filter(Boolean);
    return [problems.length ? fail(clause, `status ${status}: ${problems.join('; ')}`)
      : pass(clause, `status ${status}: none of the ${invalid.length} invalid item(s) listed as created`)];
  },
});

export const errorsReported = defineCheck({
  id: 'errors-reported',
  description: 'A batch whose items were all refused says so: a 2xx answer carries a non-empty errors array (a 4xx/5xx is judged by error-body).',
  clauses: ['ENVELOPE.ERROR_BODY'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'ENVELOPE.ERROR_BODY');
    const status = ctx.exchange.response?.status;
    if (!isSuccess(ctx.exchange)) return [];
    const errors = bodyObject(ctx.exchange)?.['errors'];
    return [judge(clause, Array.isArray(errors) && errors.length > 0, `status ${status} with ${Array.isArray(errors) ? errors.length : 0} error item(s)`,
      `status ${status} for a batch of invalid items, but errors is ${Array.isArray(errors) ? 'empty' : show(errors)}: the refusal is not reported`)];
  },
});

export const unchanged = defineCheck({
  id: 'unchanged',
  description: 'After a refused write, the record (found by its identity field, else the first in data) still holds the values it had.',
  clauses: ['REQUEST.REFUSED_CHANGES_NOTHING'],
  run: ({ exchange, args, operation }) => {
    const expected = args['record'] as Record<string, unknown> | undefined;
    const resource = String(args['resource'] ?? operation?.resource);
    const data = bodyObject(exchange)?.['data'];
    if (!expected || !Array.isArray(data)) return [fail('REQUEST.REFUSED_CHANGES_NOTHING', `no record to read back (got ${show(bodyObject(exchange))})`)];
    const identity = resourceInfo(resource).identity;
    const key = expected[identity];
    const record = key === undefined ? data[0] : data.find((r) => readPath(r, identity) === key);
    const diffs = compareRecord(resource, expected, record);
    return [judge('REQUEST.REFUSED_CHANGES_NOTHING', diffs.length === 0, `${Object.keys(expected).length} field(s) as they were before the refused write`,
      `the refused write changed ${diffs.length} field(s): ${diffs.slice(0, 5).join('; ')}`)];
  },
});

export const notApplied = defineCheck({
  id: 'not-applied',
  description: 'After a refused write, the record read back (found by the identity field of `record`, else the first in data) holds none of the values the write would have set: no field of `write` that differs from `record` (the record before) holds the value of `write`.',
  clauses: ['AUTH.BEARER_REQUIRED', 'REQUEST.REFUSED_CHANGES_NOTHING'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'AUTH.BEARER_REQUIRED');
    const write = ctx.args['write'] as Record<string, unknown> | undefined;
    const before = ctx.args['record'] as Record<string, unknown> | undefined;
    const resource = String(ctx.args['resource'] ?? ctx.operation?.resource);
    const data = bodyObject(ctx.exchange)?.['data'];
    if (!write || !before) return [fail(clause, 'not-applied needs the refused write and the record before it (with: { write, record })')];
    if (!Array.isArray(data)) return [fail(clause, `no record to read back after the refused write (got ${show(bodyObject(ctx.exchange))})`)];
    const identity = resourceInfo(resource).identity;
    const key = before[identity];
    const record = (key === undefined ? data[0] : data.find((r) => readPath(r, identity) === key)) as Record<string, unknown> | undefined;
    if (!record || typeof record !== 'object') return [fail(clause, `the record ${identity} ${show(key)} is not read back after the refused write`)];
    const changing = Object.keys(write).filter((f) => !sameValue(write[f], before[f], true));
    const applied = changing.filter((f) => sameValue(write[f], record[f], true));
    return [judge(clause, applied.length === 0, `none of the ${changing.length} field(s) the refused write would have changed holds its value`,
      `the refused write was applied: ${applied.slice(0, 5).map((f) => `${f} is now ${show(record[f], 60)}`).join('; ')}`)];
  },
});

export const notStored = defineCheck({
  id: 'not-stored',
  description: 'No record read back (every page of the step) has `field` in `values`: a refused item was not stored after all.',
  clauses: ['REQUEST.REQUIRED_ON_CREATE', 'REQUEST.BODY_TYPES', 'AUTH.BEARER_REQUIRED'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'REQUEST.REQUIRED_ON_CREATE');
    const field = String(ctx.args['field']);
    const unwanted = [ctx.args['values']].flat().filter((v) => v !== undefined).map(String);
    const records = ctx.stepExchanges.flatMap((ex) => {
      const data = bodyObject(ex)?.['data'];
      return Array.isArray(data) ? data : [];
    });
    const found = records.map((r) => readPath(r, field)).filter((v) => v !== undefined && unwanted.includes(String(v)));
    return [judge(clause, found.length === 0, `none of ${show(unwanted, 80)} stored`,
      `the refused item was stored: ${found.length} record(s) with ${field} ${show(found.slice(0, 3))} read back`)];
  },
});
