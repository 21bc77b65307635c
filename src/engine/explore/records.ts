// Records of one family as a sequence writes and reads them: concrete items from drawn values, the {id} a record
// is addressed by, and the reads after every step that compare the store with the model.
import { resourceInfo } from '../../spec/index.js';
import type { StepDef } from '../suite.js';
import type { ExpectedRecord } from '../../checks/model.js';
import type { Family } from './families.js';
import { literal, type ModelRecord, type Session } from './session.js';
import type { Drawn } from './values.js';
import { writableFields } from './families.js';

/** An item as drawn: each field drawn, or absent (left out). */
export type Draft = Record<string, Drawn | undefined>;

/** The concrete values of a draft: shared slots named for this sequence. */
export function concrete(s: Session, draft: Draft): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [field, drawn] of Object.entries(draft)) {
    if (drawn === undefined) continue;
    item[field] = 'slot' in drawn ? s.shared(field, drawn.slot) : drawn.value;
  }
  return item;
}

/** Every writable field of the family, null where the item leaves it out: what the record holds after a create or PUT. */
export function whole(family: Family, item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(writableFields(family).map((f) => [f.name, item[f.name] ?? null]));
}

/**
 * Makes a new item's key (the fields that name the record its create makes, x-rdx-id-key) differ from every other
 * record's, moving its last date field on: two records with one key could not be told apart when their ids are learnt.
 */
export function distinctKey(family: Family, item: Record<string, unknown>, taken: Set<string>): void {
  const { idKey, fields } = resourceInfo(family.resource);
  const dateField = [...idKey].reverse().find((f) => fields.find((x) => x.name === f)?.format);
  const keyOf = (): string => JSON.stringify(idKey.map((f) => item[f] ?? null));
  for (let i = 0; i < 1000 && taken.has(keyOf()) && dateField; i++) {
    const at = Date.parse(String(item[dateField]));
    const format = fields.find((x) => x.name === dateField)?.format;
    const next = new Date((Number.isNaN(at) ? 0 : at) + (format === 'date' ? 86_400_000 : 1000)).toISOString();
    item[dateField] = format === 'date' ? next.slice(0, 10) : next.replace(/\.000Z$/, 'Z');
  }
  taken.add(keyOf());
}

/** The key of a record the model holds or a batch item. */
export function keyOf(family: Family, item: Record<string, unknown>): string {
  return JSON.stringify(resourceInfo(family.resource).idKey.map((f) => item[f] ?? null));
}

/** How a step names a record in its path. */
export function params(family: Family, r: ModelRecord): Record<string, unknown> {
  return { id: family.addressedBy === 'reference' ? { $jobOfferId: r.handle } : `\${${r.handle}}` };
}

/** How a read finds a record among those it read. */
export function matchOf(family: Family, r: ModelRecord): Record<string, unknown> {
  return family.addressedBy === 'reference' ? { [family.unique ?? 'reference']: r.handle } : { id: `\${${r.handle}}` };
}

/** An expected record as a check's argument: its values sent as written, its match a template of the record's {id}. */
function asArg(e: ExpectedRecord): unknown {
  return { ...e, fields: literal(e.fields) };
}

/** The reads after a step: every record the model holds, compared with what the store gives back at once. */
export function reads(s: Session, family: Family, at: number, last: string): StepDef[] {
  const resource = family.resource;
  if (family.get) {
    return s.records.map((r) => ({
      name: `read ${r.handle} back`, operation: family.get, params: params(family, r),
      expect: { checks: [{ id: 'records-are', with: { resource, expect: [asArg(s.expected(r, matchOf(family, r), at, last))] } }] },
    }) as StepDef);
  }
  if (family.readByEmptyPatch) return readsByEmptyPatch(s, family, at, last);
  const list = family.list;
  if (!list) return [];
  // One list per shared value of the filter field: exactly the model's records with it, each once, none left out.
  return [0, 1, 2].map((slot) => s.shared(list.filter, slot)).map((value) => ({
    name: `list ${list.filter} ${value}`, operation: list.operation, query: { [list.filter]: value }, paginate: { maxPages: 10 },
    expect: { checks: [{ id: 'records-are', with: {
      resource, only: 'FILTER.REFERENCE',
      expect: s.records.filter((r) => r.fields[list.filter] === value).map((r) => asArg(s.expected(r, matchOf(family, r), at, last))),
      absent: literal(s.absent.filter((a) => a.match[list.filter] === value)),
    } }] },
  }) as StepDef);
}

/**
 * The reads of a family with neither a read by {id} nor a list: a PATCH with nothing of every record held, which
 * answers it as stored, and of every record deleted, whose answer must not hold it.
 */
function readsByEmptyPatch(s: Session, family: Family, at: number, last: string): StepDef[] {
  const resource = family.resource;
  const held = s.records.map((r) => ({
    name: `read ${r.handle} back (PATCH with nothing)`, operation: family.patch, params: params(family, r), body: {},
    expect: { checks: [{ id: 'records-are', with: { resource, expect: [asArg(s.expected(r, matchOf(family, r), at, last))] } }] },
  }) as StepDef);
  const gone = s.removed.map((d) => ({
    name: `look for deleted ${d.handle} (PATCH with nothing)`, operation: family.patch, params: { id: `\${${d.handle}}` }, body: {},
    expect: { checks: [{ id: 'records-are', with: { resource, absent: [{ match: { id: `\${${d.handle}}` }, clause: 'DELETE.REMOVES', why: d.why }] } }] },
  }) as StepDef);
  return [...held, ...gone];
}
