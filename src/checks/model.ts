// Checks that compare an answer with a model of what the store must hold: exploration (src/engine/explore) writes
// their arguments from its model, and a case it exports as YAML replays them as they are.
import { resourceInfo } from '../spec/index.js';
import { sameValue } from './records.js';
import { bodyObject, defineCheck, fail, outcomeOf, pass, show, type Judgement } from './registry.js';
import type { Exchange } from '../core/results.js';

/** One record the model expects in the answer: how to find it, its values (null: absent), and the clause it rests on. */
export interface ExpectedRecord {
  match: Record<string, unknown>;
  fields: Record<string, unknown>;
  clause: string;
  /** Why the model expects these values (the write that set them), for the message. */
  why: string;
}

/** The records of every page of the step. */
function recordsOf(exchanges: Exchange[]): Record<string, unknown>[] {
  return exchanges.flatMap((e) => {
    const data = bodyObject(e)?.['data'];
    return Array.isArray(data) ? data.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r)) : [];
  });
}

const matches = (record: Record<string, unknown>, match: Record<string, unknown>): boolean =>
  Object.entries(match).every(([field, value]) => String(record[field]) === String(value));

/** Absent, null and (for a list such as attributes) empty are one value: nothing. */
const nothing = (value: unknown): boolean => value === undefined || value === null || (Array.isArray(value) && value.length === 0);

/** The fields that differ, dates compared as instants and lists as multisets. */
function differences(resource: string, fields: Record<string, unknown>, record: Record<string, unknown>): string[] {
  const info = resourceInfo(resource);
  return Object.entries(fields).flatMap(([field, want]) => {
    const have = record[field];
    if (nothing(want) && nothing(have)) return [];
    const asDate = info.fields.find((f) => f.name === field)?.format !== undefined;
    return sameValue(want, have, asDate) ? [] : [`${field}: expected ${show(want, 60)}, read ${show(have, 60)}`];
  });
}

/** Judges one expected record against the records read. */
function judgeRecord(resource: string, want: ExpectedRecord, records: Record<string, unknown>[]): Judgement {
  const found = records.filter((r) => matches(r, want.match));
  const key = show(want.match, 80);
  // A single-record read whose record does not show the match field (an id the answer leaves out) is that record.
  const lone = found.length === 0 && records.length === 1 && Object.keys(want.match).every((f) => (records[0] as Record<string, unknown>)[f] === undefined);
  const candidates = lone ? records : found;
  if (candidates.length === 0) {
    return fail(want.clause, `the record ${key} (${want.why}) is not in the answer${records.length ? `, which holds ${records.length} other record(s)` : ''}`);
  }
  if (candidates.length > 1) return fail(want.clause, `the record ${key} (${want.why}) is in the answer ${candidates.length} times`);
  const diffs = differences(resource, want.fields, candidates[0] as Record<string, unknown>);
  return diffs.length ? fail(want.clause, `the record ${key} (${want.why}) reads back otherwise: ${diffs.slice(0, 4).join('; ')}`)
    : pass(want.clause, `the record ${key} reads back as ${want.why} left it`);
}

export const recordsAre = defineCheck({
  id: 'records-are',
  description: 'The records read (every page of the step) hold the values the model expects, each `expect` record found once by `match`, none matching an `absent` one; with `only`, no other record is read but those of `maybe` (a filter keeps nothing else); with `ifAnswered`, a list that is no success judges nothing.',
  clauses: ['WRITE.READ_BACK', 'WRITE.PATCH_PARTIAL', 'WRITE.PUT_CLEARS_OMITTED', 'REQUEST.REFUSED_CHANGES_NOTHING', 'DELETE.REMOVES', 'FILTER.REFERENCE', 'FILTER.STATUS', 'FILTER.DATE_BOUNDS', 'REQUEST.REQUIRED_ON_CREATE', 'REQUEST.BODY_TYPES'],
  run: ({ exchange, stepExchanges, args, operation }) => {
    // A list the target could not answer in the form asked (a date filter format it does not read) judges nothing.
    if (args['ifAnswered'] === true && outcomeOf(exchange) !== 'success') return [];
    const resource = String(args['resource'] ?? operation?.resource);
    const expected = (Array.isArray(args['expect']) ? args['expect'] : []) as ExpectedRecord[];
    const records = recordsOf(stepExchanges);
    const judgements = expected.map((want) => judgeRecord(resource, want, records));
    const absent = (Array.isArray(args['absent']) ? args['absent'] : []) as Omit<ExpectedRecord, 'fields'>[];
    for (const gone of absent) {
      const found = records.filter((r) => matches(r, gone.match));
      judgements.push(found.length ? fail(gone.clause, `a record ${show(gone.match, 80)} is read, which ${gone.why} should have left out: ${show(found[0], 100)}`)
        : pass(gone.clause, `no record ${show(gone.match, 80)}, as ${gone.why} should leave it`));
    }
    const only = typeof args['only'] === 'string' ? args['only'] : undefined;
    if (only) {
      // `maybe`: records the filter may keep or leave out (a date on a bound whose inclusivity is open).
      const allowed = [...expected, ...absent, ...((Array.isArray(args['maybe']) ? args['maybe'] : []) as { match: Record<string, unknown> }[])];
      const others = records.filter((r) => !allowed.some((want) => matches(r, want.match)));
      judgements.push(others.length ? fail(only, `${others.length} record(s) read that the filter should have left out: ${others.slice(0, 3).map((r) => show(r, 100)).join('; ')}`)
        : pass(only, `no record outside the ${expected.length} expected`));
    }
    return judgements;
  },
});

export const writeAccepted = defineCheck({
  id: 'write-accepted',
  description: 'A write of values the spec admits, none of which a limit could refuse, is a success (read from the body first, the status where the body is silent).',
  clauses: ['REQUEST.OPTIONAL_FIELDS_ACCEPTED', 'WRITE.PATCH_EMPTY', 'WRITE.READ_BACK', 'BATCH.PARTIAL_SUCCESS'],
  run: ({ exchange, args }) => {
    const clause = typeof args['clause'] === 'string' ? args['clause'] : 'WRITE.READ_BACK';
    const outcome = outcomeOf(exchange);
    if (outcome === 'none') return [];
    return [outcome === 'success' ? pass(clause, 'the write was accepted')
      : fail(clause, `a write of values the spec admits was refused (status ${exchange.response?.status}): ${show(bodyObject(exchange)?.['message'] ?? exchange.response?.body, 120)}`)];
  },
});
