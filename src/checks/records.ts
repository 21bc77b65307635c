// Records in responses: their fields and types, created ids, the users' nested arrays, and read-back.
import { formatError, resourceInfo, schemaValidation } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import { bodyObject, defineCheck, fail, judge, judgesEndpoint, pass, show, type Judgement } from './registry.js';

/** The problems a RECORD.SCHEMA failure quotes. */
const SHOWN_PROBLEMS = 6;

export const recordSchema = defineCheck({
  id: 'record-schema',
  description: "Every record in a success body's data matches the resource's record schema.",
  clauses: ['RECORD.SCHEMA'],
  global: true,
  // Whatever the status: data holds records wherever it appears (a partial success may come with a 4xx).
  appliesTo: (ctx) => Array.isArray(bodyObject(ctx.exchange)?.['data']) && !!ctx.operation?.recordSchema,
  run: ({ exchange, operation }) => {
    const data = bodyObject(exchange)?.['data'] as unknown[];
    // PUT /users nests its users one level deeper (checked on its own by users-nested).
    const records = operation?.kind === 'usersReplace' ? data.filter(Array.isArray).flat() : data;
    const validate = schemaValidation(operation?.recordSchema as string);
    // Counted, and only the first few written out: a page of 20,000 wrong records has 100,000 problems.
    let count = 0;
    const shown: string[] = [];
    records.forEach((r, i) => {
      const errors = validate(r);
      count += errors.length;
      for (const e of errors.slice(0, SHOWN_PROBLEMS - shown.length)) shown.push(`data[${i}]${formatError(e).replace('(body)', '')}`);
    });
    return [count ? fail('RECORD.SCHEMA', `${count} problem(s): ${shown.join('; ')}`)
      : pass('RECORD.SCHEMA', `${records.length} record(s) match ${operation?.recordSchema?.split('/').pop()}`)];
  },
});

export const usersNested = defineCheck({
  id: 'users-nested',
  description: 'PUT /users returns data as an array of arrays of users.',
  clauses: ['RECORD.USERS_NESTED'],
  global: true,
  appliesTo: (ctx) => judgesEndpoint('RECORD.USERS_NESTED', ctx) && Array.isArray(bodyObject(ctx.exchange)?.['data']),
  run: ({ exchange }) => {
    const data = bodyObject(exchange)?.['data'] as unknown[];
    const flat = data.findIndex((x) => !Array.isArray(x));
    return [judge('RECORD.USERS_NESTED', flat < 0, `data holds ${data.length} array(s) of users`,
      `data[${flat}] is ${show(data[flat])}, not an array of users`)];
  },
});

/** The users of a PUT /users answer's data, one level of nesting taken off (a flat list is read as it is). */
function usersOf(data: unknown): unknown[] {
  return Array.isArray(data) ? data.flatMap((group) => (Array.isArray(group) ? group : [group])) : [];
}

export const usersNotRepeated = defineCheck({
  id: 'users-not-repeated',
  description: 'The answer to a PUT /users sent a second time with the same array lists none of its users (by `field`, mail by default) at least twice and more often than `before`, the data of the first answer.',
  clauses: ['WRITE.USERS_REPLACE'],
  run: ({ exchange, args }) => {
    const field = typeof args['field'] === 'string' ? args['field'] : 'mail';
    const values = Array.isArray(args['values']) ? args['values'] : [];
    // Which users the data lists is open (USERS_REPLACE): counted against the first answer, a user listed twice by
    // the way the data is grouped, or one that moved to another page, is no second copy.
    const count = (data: unknown, value: unknown): number => usersOf(data).filter((u) => readPath(u, field) === value).length;
    const data = bodyObject(exchange)?.['data'];
    const repeated = values.map((v) => ({ v, now: count(data, v), before: count(args['before'], v) })).filter((x) => x.now >= 2 && x.now > x.before);
    return [judge('WRITE.USERS_REPLACE', repeated.length === 0, `none of the ${values.length} user(s) listed more often than after the first PUT`,
      `the same array sent again added copies: ${repeated.slice(0, 3).map((x) => `${field} ${show(x.v, 60)} listed ${x.now} times (${x.before} after the first PUT)`).join('; ')}`)];
  },
});

/** Records of the answer's data at any status (PUT /users nests them); [] without data. */
function dataRecords(exchange: Parameters<typeof bodyObject>[0]): unknown[] {
  const data = bodyObject(exchange)?.['data'];
  return Array.isArray(data) ? data : [];
}

export const atsNoId = defineCheck({
  id: 'ats-no-id',
  description: 'ATS job offers in data (endpoints 2 to 6) and the records of attribute creation (endpoint 7) carry no id member.',
  clauses: ['RECORD.ATS_NO_ID'],
  global: true,
  appliesTo: (ctx) => judgesEndpoint('RECORD.ATS_NO_ID', ctx) && dataRecords(ctx.exchange).length > 0,
  run: ({ exchange }) => {
    const records = dataRecords(exchange);
    const withId = records.map((r, i) => [i, r] as const).filter(([, r]) => !!r && typeof r === 'object' && Object.hasOwn(r, 'id'));
    return [judge('RECORD.ATS_NO_ID', withId.length === 0, `${records.length} record(s) without id`,
      `${withId.length} of ${records.length} record(s) carry an id, which the spec says they do not: ${withId.slice(0, 3).map(([i, r]) => `data[${i}].id = ${show((r as Record<string, unknown>)['id'], 40)}`).join(', ')}`)];
  },
});

export const attributeValueOnly = defineCheck({
  id: 'attribute-value-only',
  description: 'The items of a single-attribute update answer (endpoint 8) carry value and no other member.',
  clauses: ['RECORD.ATTRIBUTE_VALUE_ONLY'],
  global: true,
  appliesTo: (ctx) => judgesEndpoint('RECORD.ATTRIBUTE_VALUE_ONLY', ctx) && dataRecords(ctx.exchange).length > 0,
  run: ({ exchange }) => {
    const items = dataRecords(exchange);
    const problems = items.flatMap((item, i) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return [`data[${i}] is ${show(item, 40)}, not an object`];
      const keys = Object.keys(item);
      const extra = keys.filter((k) => k !== 'value');
      return [...(keys.includes('value') ? [] : [`data[${i}] has no value`]), ...(extra.length ? [`data[${i}] carries ${extra.join(', ')} besides value`] : [])];
    });
    return [judge('RECORD.ATTRIBUTE_VALUE_ONLY', problems.length === 0, `${items.length} item(s) with value only`, problems.slice(0, 4).join('; '))];
  },
});

export const applicationStepIds = defineCheck({
  id: 'application-step-ids',
  description: 'Application steps in the data of create, PUT and GET answers (endpoints 10 to 12) carry a numeric id.',
  clauses: ['RECORD.APPLICATION_STEP_ID'],
  global: true,
  appliesTo: (ctx) => judgesEndpoint('RECORD.APPLICATION_STEP_ID', ctx) && dataRecords(ctx.exchange).length > 0,
  run: ({ exchange }) => {
    const records = dataRecords(exchange);
    const missing = records.map((r, i) => [i, readPath(r, 'id')] as const).filter(([, id]) => typeof id !== 'number');
    return [judge('RECORD.APPLICATION_STEP_ID', missing.length === 0, `${records.length} application step(s) carry a numeric id`,
      `${missing.length} of ${records.length} application step(s) carry no numeric id: ${missing.slice(0, 3).map(([i, id]) => `data[${i}].id = ${show(id)}`).join(', ')}`)];
  },
});

export const createdIds = defineCheck({
  id: 'created-ids',
  description: 'Created application steps, activities and jobboard job offers in data carry a numeric id, each a different one (an id names one record).',
  clauses: ['RECORD.CREATED_IDS', 'RECORD.APPLICATION_STEP_ID'],
  run: ({ exchange, args }) => {
    const clause = typeof args['clause'] === 'string' ? args['clause'] : 'RECORD.CREATED_IDS';
    const data = bodyObject(exchange)?.['data'];
    if (!Array.isArray(data)) return [];
    const ids = data.map((r) => readPath(r, 'id'));
    const missing = ids.map((id, i) => [i, id] as const).filter(([, id]) => typeof id !== 'number');
    if (missing.length) return [fail(clause, `${missing.length} of ${data.length} created record(s) carry no numeric id: ${missing.slice(0, 3).map(([i, id]) => `data[${i}].id = ${show(id)}`).join(', ')}`)];
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    return [judge(clause, repeated.length === 0, `${data.length} created record(s) carry a numeric id each, all different`,
      `${data.length} created record(s) share ids: ${show([...new Set(repeated)].slice(0, 3))} named more than once, so an id does not name the record made from one item`)];
  },
});

/** Two field values are the same: dates compare as instants, since 09:00:00Z and 09:00:00.000Z are one time. */
export function sameValue(expected: unknown, actual: unknown, asDates = false): boolean {
  const iso = /^\d{4}-\d{2}-\d{2}/;
  if (asDates && typeof expected === 'string' && typeof actual === 'string' && iso.test(expected) && iso.test(actual)) {
    const a = Date.parse(expected);
    const b = Date.parse(actual);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a === b;
  }
  // Lists in records (attributes) have no documented order: compare them as multisets.
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const canon = (list: unknown[]): string[] => list.map((x) => JSON.stringify(x, Object.keys((x ?? {}) as object).sort())).sort();
    return JSON.stringify(canon(expected)) === JSON.stringify(canon(actual));
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

/** Compares the fields of `expected` with a record; absent and null count as the same for optional fields. */
export function compareRecord(resource: string, expected: Record<string, unknown>, actual: unknown): string[] {
  if (!actual || typeof actual !== 'object') return [`no record to compare (got ${show(actual)})`];
  const info = resourceInfo(resource);
  const got = actual as Record<string, unknown>;
  return Object.entries(expected).flatMap(([field, want]) => {
    const have = got[field];
    if ((want === null || want === undefined) && (have === null || have === undefined)) return [];
    const format = info.fields.find((f) => f.name === field)?.format;
    return sameValue(want, have, format !== undefined) ? [] : [`${field}: sent ${show(want, 60)}, read back ${show(have, 60)}`];
  });
}

export const recordMatches = defineCheck({
  id: 'record-matches',
  description: 'The record in data (found by its identity field, else the first) holds the expected field values.',
  clauses: ['WRITE.READ_BACK', 'WRITE.PATCH_PARTIAL'],
  run: ({ exchange, args, operation }): Judgement[] => {
    const clause = typeof args['clause'] === 'string' ? args['clause'] : 'WRITE.READ_BACK';
    const expected = args['record'] as Record<string, unknown> | undefined;
    const resource = String(args['resource'] ?? operation?.resource);
    const data = Array.isArray(args['records']) ? args['records'] : bodyObject(exchange)?.['data'];
    // A body without a data array is data-is-array's finding; blaming the write too would name the wrong clause.
    if (!Array.isArray(data)) return [];
    if (!expected) return [fail(clause, 'record-matches needs a record to compare with (with: { record })')];
    const identity = resourceInfo(resource).identity;
    const key = expected[identity];
    const record = key === undefined ? data[0] : data.find((r) => readPath(r, identity) === key);
    const diffs = compareRecord(resource, expected, record);
    return [diffs.length ? fail(clause, `${diffs.length} field(s) differ: ${diffs.slice(0, 5).join('; ')}`)
      : pass(clause, `${Object.keys(expected).length} field(s) read back as written`)];
  },
});

export const fieldsCleared = defineCheck({
  id: 'fields-cleared',
  description: 'Fields left out of a PUT are absent or null afterwards.',
  clauses: ['WRITE.PUT_CLEARS_OMITTED'],
  run: ({ exchange, args }) => {
    const record = (Array.isArray(args['records']) ? args['records'] : bodyObject(exchange)?.['data'] as unknown[] | undefined)?.[0];
    const fields = (args['fields'] as string[] | undefined) ?? [];
    const kept = fields.filter((f) => readPath(record, f) !== undefined && readPath(record, f) !== null);
    return [judge('WRITE.PUT_CLEARS_OMITTED', kept.length === 0, `${fields.join(', ')} cleared by the PUT`,
      `still present after a PUT without them: ${kept.map((f) => `${f}=${show(readPath(record, f), 40)}`).join(', ')}`)];
  },
});

export const roundTrip = defineCheck({
  id: 'round-trip',
  description: 'A value the write was accepted with reads back identical, code point for code point (dates as the same instant): the record in data (found by its identity field, else the first) holds every field of `record`. When the write was refused (`accepted` is not success) there is nothing to compare: refusing a value is legal, limits are not shown.',
  clauses: ['WRITE.READ_BACK', 'WRITE.PATCH_PARTIAL'],
  run: ({ exchange, args, operation }): Judgement[] => {
    const clause = typeof args['clause'] === 'string' ? args['clause'] : 'WRITE.READ_BACK';
    const expected = args['record'] as Record<string, unknown> | undefined;
    if (!expected) return [fail(clause, 'round-trip needs the record written (with: { record, accepted })')];
    if (args['accepted'] !== 'success') return [pass(clause, `the write was refused (${show(args['accepted'])}): a limit the spec leaves open, nothing stored to compare`)];
    const data = bodyObject(exchange)?.['data'];
    if (!Array.isArray(data)) return [];
    const resource = String(args['resource'] ?? operation?.resource);
    const identity = resourceInfo(resource).identity;
    const key = expected[identity];
    const record = key === undefined ? data[0] : data.find((r) => readPath(r, identity) === key);
    if (!record) return [fail(clause, `the write was accepted, but no record with ${identity} ${show(key, 60)} is read back`)];
    const diffs = compareRecord(resource, expected, record).map((d) => `${d}${describeDifference(expected, record as Record<string, unknown>, d)}`);
    return [diffs.length ? fail(clause, `accepted, then read back otherwise: ${diffs.slice(0, 4).join('; ')}`)
      : pass(clause, `${Object.keys(expected).length} field(s) read back code point for code point`)];
  },
});

/** Where two texts part, for a message: their lengths in code points and the first code point that differs. */
function describeDifference(expected: Record<string, unknown>, actual: Record<string, unknown>, diff: string): string {
  const field = diff.split(':')[0] ?? '';
  const a = expected[field];
  const b = actual[field];
  if (typeof a !== 'string' || typeof b !== 'string') return '';
  const x = Array.from(a);
  const y = Array.from(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const at = (list: string[]): string => (i < list.length ? `U+${(list[i]?.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}` : 'the end');
  return ` (sent ${x.length} code points, read back ${y.length}; first difference at ${i}: ${at(x)} sent, ${at(y)} read back)`;
}
