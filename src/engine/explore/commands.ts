// The commands a sequence is made of, for a family of records: batch creates (some mixing in an item invalid in one
// field), PUT and PATCH (some sent twice), and two writes side by side. Each runs its steps, updates the model by
// what the answers say, then reads every record back (records.ts); a failed judgement ends the sequence, and
// fast-check shrinks it to the shortest that still fails.
import type fc from 'fast-check';
import { outcomeOf } from '../../checks/registry.js';
import { resourceInfo } from '../../spec/index.js';
import type { Exchange } from '../../core/results.js';
import { Stop } from '../case-run.js';
import type { StepDef } from '../suite.js';
import type { Family } from './families.js';
import { writableFields } from './families.js';
import { concrete, distinctKey, keyOf, params, reads, whole, type Draft } from './records.js';
import { literal, type ModelRecord, type Session } from './session.js';
import { refusable, wrongTypeOf } from './values.js';

/** How an invalid item differs from a valid one: one field left out (a required one) or of another type. */
export interface Spoil {
  field: number;
  omit: boolean;
}

/** A command of a sequence: its steps, then the reads that judge the store. */
export abstract class Command implements fc.AsyncCommand<Session, Session> {
  constructor(readonly family: Family) {}
  abstract describe(): string;
  protected abstract act(s: Session): Promise<void>;
  protected possible(_s: Readonly<Session>): boolean {
    return true;
  }
  check(s: Readonly<Session>): boolean {
    return s.live && this.possible(s);
  }
  async run(_model: Session, s: Session): Promise<void> {
    s.at++;
    await this.act(s);
    if (!s.stop) for (const step of reads(s, this.family, s.at, `${s.at}. ${this.describe()}`)) await s.send(step);
    if (s.failed()) throw new Error(`step ${s.at} (${this.describe()}) left the store otherwise than the spec says`);
  }
  toString(): string {
    return this.describe();
  }
}

/** Whether an item carries a value an implementation may refuse (a limit it does not show). */
function anyRefusable(item: Record<string, unknown>): boolean {
  return Object.values(item).some((value) => refusable(value));
}

/** The clause a refused write of admitted values breaks: optional fields accepted, else the write itself. */
function acceptedClause(s: Readonly<Session>, family: Family, item: Record<string, unknown>, otherwise: string): string {
  const optional = writableFields(family, s.declared).filter((f) => !f.required).map((f) => f.name);
  return Object.keys(item).some((f) => optional.includes(f)) ? 'REQUEST.OPTIONAL_FIELDS_ACCEPTED' : otherwise;
}

/** A batch create: its valid items, and with `spoil` a tame valid item and one invalid in a single field. */
export class Create extends Command {
  constructor(family: Family, readonly drafts: Draft[], readonly spoil?: Spoil) {
    super(family);
  }
  describe(): string {
    return `create ${this.drafts.length} item(s)${this.spoil ? ' with a tame one and one invalid in a single field' : ''}`;
  }
  protected async act(s: Session): Promise<void> {
    const made = this.prepare(s);
    await settleCreate(s, this.family, made, await s.send(made.step));
  }
  prepare(s: Session): PreparedCreate {
    const f = this.family;
    // Keys of the records held and of the invalid items looked for: a new record must be told apart from both.
    const taken = new Set([...s.records.map((r) => r.fields), ...s.absent.map((a) => a.match)].map((fields) => keyOf(f, fields)));
    const items = this.drafts.map((d) => concrete(s, d));
    if (this.spoil) items.push(tameItem(s, f));
    for (const item of items) {
      if (f.unique) item[f.unique] = s.unique(f.unique);
      distinctKey(f, item, taken);
    }
    let invalid: PreparedCreate['invalid'];
    if (this.spoil) {
      // A union field's members are not listed: a value of another type may be one of them, so none is spoiled.
      const fields = writableFields(f, s.declared).filter((x) => x.name !== f.unique && !x.union);
      const field = fields[this.spoil.field % fields.length] as (typeof fields)[number];
      const item = tameItem(s, f);
      if (f.unique) item[f.unique] = s.unique(f.unique);
      distinctKey(f, item, taken);
      // Only a field the spec itself requires is left out: one required by a reading of an open point is not.
      const omit = this.spoil.omit && resourceInfo(f.resource).required.includes(field.name);
      const key = JSON.parse(keyOf(f, item)) as unknown[];
      if (omit) delete item[field.name];
      else item[field.name] = wrongTypeOf(field);
      invalid = { item, key, clause: omit ? 'REQUEST.REQUIRED_ON_CREATE' : 'REQUEST.BODY_TYPES', what: omit ? `without ${field.name}` : `with ${field.name} of another type` };
    }
    const handles = items.map(() => (f.addressedBy === 'id' ? s.handle() : ''));
    const body = [...items, ...(invalid ? [invalid.item] : [])];
    const valid = items.filter((item) => !anyRefusable(item));
    // Sent as one literal, so the items stay the objects they are here: the invalid one is known as such to the
    // checks and to the residue ledger (an item refused is no residue).
    if (invalid) s.run.gen.invalidItems.add(invalid.item);
    const step: StepDef = {
      name: this.describe(), operation: f.create, body: { $literal: body },
      ...(f.addressedBy === 'id' ? { capture: Object.fromEntries(handles.map((h, i) => [h, `$created.${i}.id`])) } : {}),
      ...(valid.length === items.length && !invalid ? { expect: { checks: [{ id: 'write-accepted', with: { clause: acceptedClause(s, f, items[0] ?? {}, 'BATCH.PARTIAL_SUCCESS') } }] } } : {}),
    };
    return { step, items, handles, ...(invalid ? { invalid } : {}) };
  }
}

export interface PreparedCreate {
  step: StepDef;
  items: Record<string, unknown>[];
  handles: string[];
  invalid?: { item: Record<string, unknown>; key: unknown[]; clause: string; what: string };
}

/** A valid item of plain values no limit could refuse: the control beside an invalid one. */
function tameItem(s: Session, f: Family): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const field of writableFields(f, s.declared).filter((x) => x.required && x.name !== f.unique)) {
    if (f.shared.includes(field.name)) item[field.name] = s.shared(field.name, 0);
    else if (field.types.includes('number')) item[field.name] = 1;
    else if (field.format === 'date') item[field.name] = '2026-01-05';
    else if (field.format === 'date-time') item[field.name] = '2026-01-05T09:00:00Z';
    else item[field.name] = field.name === 'status' ? (s.statuses[0] ?? 'applied') : `tame ${field.name}`;
  }
  return item;
}

/**
 * What a create made, from the ids its answer (or the listing, or the id source) gave and, for ATS job offers, a
 * read of each: the model takes the records that exist. An item that was not made is legal only when the answer
 * says so with errors, or when the item carries a value a limit may refuse.
 */
async function settleCreate(s: Session, f: Family, made: PreparedCreate, answer: Exchange | undefined): Promise<void> {
  if (!answer || s.stop) return;
  const created: boolean[] = [];
  const reported = hasErrors(answer);
  for (const [i, item] of made.items.entries()) {
    if (f.addressedBy === 'id') {
      created.push(s.run.vars[made.handles[i] as string] !== undefined);
      continue;
    }
    // An item no limit could refuse, in a batch that reported no error, must be there.
    const must = !reported && !anyRefusable(item) ? [{ match: { reference: item['reference'] }, fields: {}, clause: 'WRITE.READ_BACK', why: `step ${s.at} created it and reported no error` }] : [];
    created.push(stored(await s.send(probe(f, item['reference'], `is ${String(item['reference'])} stored`, { expect: literal(must) })), item['reference']));
  }
  if (s.stop) return;
  // An id that could not be learnt where the answer reported no error: the case cannot be judged without it.
  if (created.some((c) => !c) && outcomeOf(answer) === 'success' && f.addressedBy === 'id' && !made.invalid) {
    const missing = [...s.run.missing.values()][0];
    if (missing) {
      s.stop = new Stop('skip', missing.why, missing.unlock);
      return;
    }
  }
  made.items.forEach((item, i) => {
    if (!created[i]) return;
    const handle = f.addressedBy === 'id' ? (made.handles[i] as string) : String(item[f.unique ?? 'reference']);
    s.records.push({ handle, fields: whole(f, item), ...(f.name === 'ats-job-offers' ? { attributes: attributesOf(item) } : {}), clause: 'WRITE.READ_BACK', why: `created by step ${s.at}`, writtenAt: s.at });
  });
  if (made.invalid) await judgeInvalid(s, f, made, answer);
}

/** Whether an answer reports refused items (error items), whatever else it carries. */
function hasErrors(ex: Exchange): boolean {
  const errors = (ex.response?.json as Record<string, unknown> | undefined)?.['errors'];
  return Array.isArray(errors) && errors.length > 0;
}

/**
 * Whether an ATS job offer is stored, asked of the list filtered by its reference: a record never created has no
 * {id} to read it by where an id source maps references to ids (ATS_JOB_OFFER_ID), but every one has a reference.
 */
function probe(f: Family, reference: unknown, name: string, args: Record<string, unknown>): StepDef {
  return { name, operation: 'listJobOffers', query: { reference }, paginate: { maxPages: 10 },
    expect: { checks: [{ id: 'records-are', with: { resource: f.resource, ...args } }] } };
}

/** Whether a probe's answer lists the record with the reference. */
function stored(ex: Exchange | undefined, reference: unknown): boolean {
  const data = (ex?.response?.json as Record<string, unknown> | undefined)?.['data'];
  return Array.isArray(data) && data.some((r) => !!r && typeof r === 'object' && (r as Record<string, unknown>)['reference'] === reference);
}

/** The attributes an item was created with (none here: exploration adds them through their own endpoint). */
function attributesOf(item: Record<string, unknown>): Map<string, unknown> {
  const list = Array.isArray(item['attributes']) ? (item['attributes'] as { name: string; value: unknown }[]) : [];
  return new Map(list.map((a) => [a.name, a.value]));
}

/** The invalid item must not be stored; where it was not and a valid item was, the answer is a partial success. */
async function judgeInvalid(s: Session, f: Family, made: PreparedCreate, answer: Exchange): Promise<void> {
  const invalid = made.invalid as NonNullable<PreparedCreate['invalid']>;
  const { idKey } = resourceInfo(f.resource);
  const match = Object.fromEntries(idKey.map((field, i) => [field, invalid.key[i]]));
  const gone = { match, clause: invalid.clause, why: `step ${s.at}'s item ${invalid.what}` };
  let kept = false;
  if (f.addressedBy === 'reference') {
    kept = stored(await s.send(probe(f, match['reference'], 'is the invalid item stored', { absent: [literal(gone)] })), match['reference']);
  } else if (f.list) s.absent.push(gone);
  else s.judge('records-are', answer, { resource: f.resource, absent: [gone] }, f.create);
  // The tame item beside it can be refused by no limit: a batch that stored neither failed partially all the same.
  // Where a valid item carries a value a limit may refuse, the whole batch may be refused for it (FIELD_LIMITS).
  if (!kept && !made.items.some((item) => anyRefusable(item))) {
    s.judge('partial-success', answer, {}, f.create, [...made.items, invalid.item], invalid.item);
  }
}

/** PUT of a whole record (its reference kept where that is its {id}), sent once or twice. */
export class Put extends Command {
  constructor(family: Family, readonly pick: number, readonly draft: Draft, readonly twice: boolean) {
    super(family);
  }
  describe(): string {
    return `PUT record ${this.pick}${this.twice ? ' twice' : ''}`;
  }
  protected override possible(s: Readonly<Session>): boolean {
    return s.records.length > 0 && this.family.replace !== undefined;
  }
  protected async act(s: Session): Promise<void> {
    const r = s.records[this.pick % s.records.length] as ModelRecord;
    const item = concrete(s, this.draft);
    if (this.family.unique) item[this.family.unique] = r.handle;
    // Attributes ride along as they are, so that either reading of a PUT without them leaves them alone.
    if (r.attributes) item['attributes'] = [...r.attributes].map(([name, value]) => ({ name, value }));
    await write(s, r, { name: this.describe(), operation: this.family.replace ?? '', params: params(this.family, r), body: literal(item) }, this.twice,
      anyRefusable(item), acceptedClause(s, this.family, item, 'WRITE.READ_BACK'),
      () => whole(this.family, item), 'WRITE.READ_BACK', 'PUT');
  }
}

/** PATCH of any subset of fields, the empty one included, sent once or twice. */
export class Patch extends Command {
  constructor(family: Family, readonly pick: number, readonly draft: Draft, readonly twice: boolean) {
    super(family);
  }
  describe(): string {
    return `PATCH record ${this.pick} with ${Object.values(this.draft).filter((d) => d !== undefined).length} field(s)${this.twice ? ' twice' : ''}`;
  }
  protected override possible(s: Readonly<Session>): boolean {
    return s.records.length > 0;
  }
  protected act(s: Session): Promise<void> {
    return this.apply(s);
  }
  apply(s: Session, beside = ''): Promise<void> {
    const r = s.records[this.pick % s.records.length] as ModelRecord;
    const item = concrete(s, this.draft);
    const clause = Object.keys(item).length === 0 ? 'WRITE.PATCH_EMPTY' : acceptedClause(s, this.family, item, 'WRITE.PATCH_PARTIAL');
    return write(s, r, { name: `${this.describe()}${beside}`, operation: this.family.patch, params: params(this.family, r), body: literal(item) }, this.twice,
      anyRefusable(item), clause, () => ({ ...r.fields, ...item }), 'WRITE.PATCH_PARTIAL', 'PATCH');
  }
}

/** Sends a write (twice when asked) and moves the model on by its answer: accepted, the new values; refused, none. */
async function write(s: Session, r: ModelRecord, step: StepDef, twice: boolean, mayRefuse: boolean, clause: string,
  after: () => Record<string, unknown>, readClause: string, what: string): Promise<void> {
  const expect = mayRefuse ? {} : { expect: { checks: [{ id: 'write-accepted', with: { clause } }] } };
  let ex = await s.send({ ...step, ...expect });
  if (twice && ex && outcomeOf(ex) === 'success') ex = await s.send({ ...step, name: `${step.name} (again)`, ...expect });
  if (!ex || s.stop) return;
  r.writtenAt = s.at;
  if (outcomeOf(ex) === 'success') {
    r.fields = after();
    r.clause = readClause;
    r.why = `step ${s.at} (${what}${twice ? ' twice' : ''})`;
  } else refused(s, r, what);
}

/** A refused write leaves the record as the steps before it did, and the next read judges that. */
function refused(s: Session, r: ModelRecord, what: string): void {
  r.clause = 'REQUEST.REFUSED_CHANGES_NOTHING';
  r.why = `step ${s.at} (${what}) was refused, so ${r.why.replace(/^step/, 'what step')} left`;
}

/** DELETE of a record (jobboard job offers): accepted, it is gone, and no other record with it. */
export class Delete extends Command {
  constructor(family: Family, readonly pick: number) {
    super(family);
  }
  describe(): string {
    return `DELETE record ${this.pick}`;
  }
  protected override possible(s: Readonly<Session>): boolean {
    return s.records.length > 0 && this.family.remove !== undefined;
  }
  protected async act(s: Session): Promise<void> {
    const at = this.pick % s.records.length;
    const r = s.records[at] as ModelRecord;
    const ex = await s.send({ name: this.describe(), operation: this.family.remove ?? '', params: params(this.family, r),
      expect: { checks: [{ id: 'write-accepted', with: { clause: 'DELETE.REMOVES' } }] } });
    if (!ex || s.stop) return;
    r.writtenAt = s.at;
    if (outcomeOf(ex) === 'success') {
      s.records.splice(at, 1);
      s.removed.push({ handle: r.handle, why: `step ${s.at} deleted it` });
    } else refused(s, r, 'DELETE');
  }
}

/** Two batch creates sent at once: each must make its own records, whatever the other does. */
export class CreateSideBySide extends Command {
  constructor(family: Family, readonly first: Create, readonly second: Create) {
    super(family);
  }
  describe(): string {
    return `two creates side by side (${this.first.drafts.length} and ${this.second.drafts.length} item(s))`;
  }
  protected async act(s: Session): Promise<void> {
    const a = this.first.prepare(s);
    const b = this.second.prepare(s);
    b.step = { ...b.step, name: `${b.step.name} (beside the other)` };
    const [first, second] = await Promise.all([s.send(a.step), s.send(b.step)]);
    await settleCreate(s, this.family, a, first);
    await settleCreate(s, this.family, b, second);
  }
}

/** Two PATCHes of two different records sent at once: each must change its own record, and only it. */
export class PatchSideBySide extends Command {
  constructor(family: Family, readonly first: Patch, readonly second: Patch) {
    super(family);
  }
  describe(): string {
    return 'two PATCHes of two records side by side';
  }
  protected override possible(s: Readonly<Session>): boolean {
    return s.records.length > 1 && this.first.pick % s.records.length !== this.second.pick % s.records.length;
  }
  protected async act(s: Session): Promise<void> {
    await Promise.all([this.first.apply(s), this.second.apply(s, ' (beside the other)')]);
  }
}
