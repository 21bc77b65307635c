// What only ATS job offers have: attributes, written through their own endpoints, and the list filtered by reference.
import { outcomeOf } from '../../checks/registry.js';
import { Command } from './commands.js';
import { matchOf, params } from './records.js';
import { literal, type ModelRecord, type Session } from './session.js';

/** The few attribute names a sequence uses, so that records share them (a write under one name must stay on its record). */
export const ATTRIBUTE_NAMES = ['level', 'Contract type', 'Région 🌍', 'skills & tools'] as const;

/** Attributes added to one job offer in one batch (only names it does not have: a conflict is an open point). */
export class AddAttributes extends Command {
  constructor(family: Command['family'], readonly pick: number, readonly entries: { name: number; value: unknown }[]) {
    super(family);
  }
  describe(): string {
    return `add ${this.entries.length} attribute(s) to record ${this.pick}`;
  }
  protected override possible(s: Readonly<Session>): boolean {
    return s.records.length > 0;
  }
  protected async act(s: Session): Promise<void> {
    const r = s.records[this.pick % s.records.length] as ModelRecord;
    const have = r.attributes ?? new Map<string, unknown>();
    const fresh = new Map<string, unknown>();
    for (const e of this.entries) {
      const name = ATTRIBUTE_NAMES[e.name % ATTRIBUTE_NAMES.length] as string;
      if (!have.has(name) && !fresh.has(name)) fresh.set(name, e.value);
    }
    if (fresh.size === 0) return;
    const body = [...fresh].map(([name, value]) => ({ name, value }));
    const ex = await s.send({ name: this.describe(), operation: 'batchCreateJobOfferAttributes', params: params(this.family, r), body: literal(body),
      expect: { checks: [{ id: 'write-accepted', with: { clause: 'WRITE.READ_BACK' } }] } });
    moved(s, r, ex && outcomeOf(ex) === 'success', 'WRITE.READ_BACK', 'attributes added', () => {
      for (const [name, value] of fresh) have.set(name, value);
      r.attributes = have;
    });
  }
}

/** One attribute's value updated, or the attribute deleted. */
export class ChangeAttribute extends Command {
  constructor(family: Command['family'], readonly pick: number, readonly name: number, readonly value: unknown, readonly remove: boolean) {
    super(family);
  }
  describe(): string {
    return `${this.remove ? 'delete' : 'update'} an attribute of record ${this.pick}`;
  }
  protected override possible(s: Readonly<Session>): boolean {
    return s.records.some((r) => r.attributes?.size);
  }
  protected async act(s: Session): Promise<void> {
    const owners = s.records.filter((r) => r.attributes?.size);
    const r = owners[this.pick % owners.length] as ModelRecord;
    const attributes = r.attributes as Map<string, unknown>;
    const name = [...attributes.keys()][this.name % attributes.size] as string;
    const clause = this.remove ? 'DELETE.REMOVES' : 'WRITE.READ_BACK';
    const ex = await s.send({
      name: this.describe(), operation: this.remove ? 'deleteJobOfferAttribute' : 'patchJobOfferAttribute', params: { ...params(this.family, r), name },
      ...(this.remove ? {} : { body: literal({ value: this.value }) }), expect: { checks: [{ id: 'write-accepted', with: { clause } }] },
    });
    moved(s, r, ex && outcomeOf(ex) === 'success', clause, this.remove ? `attribute ${name} deleted` : `attribute ${name} updated`, () => {
      if (this.remove) attributes.delete(name);
      else attributes.set(name, this.value);
    });
  }
}

/** The list filtered by one reference: the record with it (or none, for a reference no record has), and no other. */
export class ListByReference extends Command {
  constructor(family: Command['family'], readonly pick: number, readonly unknown: boolean) {
    super(family);
  }
  describe(): string {
    return this.unknown ? 'list job offers by a reference no record has' : `list job offers by the reference of record ${this.pick}`;
  }
  protected async act(s: Session): Promise<void> {
    const r = this.unknown || s.records.length === 0 ? undefined : (s.records[this.pick % s.records.length] as ModelRecord);
    const reference = r?.handle ?? s.unique('reference');
    await s.send({ name: this.describe(), operation: 'listJobOffers', query: { reference }, paginate: { maxPages: 10 },
      expect: { checks: [{ id: 'records-are', with: { resource: 'job-offer', only: 'FILTER.REFERENCE', expect: r ? [{ match: matchOf(this.family, r), fields: {}, clause: 'FILTER.REFERENCE', why: 'its reference is the filter' }] : [] } }] } });
  }
}

/** Moves the model on by a write's answer: accepted, the change; refused, nothing (and nothing may have changed). */
function moved(s: Session, r: ModelRecord, accepted: boolean | undefined, clause: string, what: string, apply: () => void): void {
  if (accepted === undefined || s.stop) return;
  r.writtenAt = s.at;
  if (accepted) {
    apply();
    r.clause = clause;
    r.why = `step ${s.at} (${what})`;
  } else {
    r.clause = 'REQUEST.REFUSED_CHANGES_NOTHING';
    r.why = `step ${s.at} (${what}) was refused, so what came before`;
  }
}
