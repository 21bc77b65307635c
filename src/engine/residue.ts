// The residue ledger: what the run created on the target (and deleted again), so the report can list what is left.
// One ledger per run, shared by every case. Where no answer shows a created record's {id}, the run's id sources
// (idSources) tell it: a DELETE by that id deletes the record, and the end-of-run sweep can address it.
import { bodyObject, outcomeOf } from '../checks/registry.js';
import { resourceInfo, type Operation } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import type { Exchange, ResidueEntry } from '../core/results.js';
import type { OutgoingRequest } from '../http/client.js';
import { isIdSourceResource, type IdSourceSet, type RecordKey } from './id-sources.js';

type Id = number | string;

/** An id as the ledger keeps it: a whole number as a number (as an answer would show it), else the text. */
const asId = (id: string): Id => (/^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id);

const sameKey = (a: RecordKey | undefined, b: RecordKey): boolean => !!a && Object.keys(b).every((f) => a[f] === b[f]);

export class ResidueLedger {
  readonly entries: ResidueEntry[] = [];
  /** What names each created record in the request that created it (spec/schemas x-rdx-id-key): its id source's key. */
  private readonly keys = new WeakMap<ResidueEntry, RecordKey>();
  /** The resources whose id source already failed to tell an id: not asked again (each failure may cost a wait). */
  private readonly silent = new Set<string>();

  /**
   * @param invalidItems the create items the run spoiled on purpose (they count only when created anyway)
   * @param ids the run's id sources, for the ids no answer showed
   */
  constructor(private readonly invalidItems: WeakSet<object>, private readonly ids?: IdSourceSet) {}

  /** Notes what an exchange of a case created or deleted. */
  record(caseId: string, op: Operation, ex: Exchange, body: unknown, request: OutgoingRequest): void {
    // A partial success may come with a 4xx: what data lists was created all the same.
    const listed = Array.isArray(bodyObject(ex)?.['data']) && (bodyObject(ex)?.['data'] as unknown[]).length > 0;
    if (outcomeOf(ex) !== 'success' && !listed) return;
    if (op.kind === 'batchCreate' && Array.isArray(body)) this.created(caseId, op, ex, body as Record<string, unknown>[]);
    if (op.kind === 'delete') {
      const last = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '');
      for (const entry of this.entries) {
        if (entry.resource !== op.resource || entry.deleted) continue;
        const id = this.knownId(entry);
        if ((id !== undefined && String(id) === last) || entry.reference === last) entry.deleted = true;
      }
    }
  }

  /** Whether the run created a record of the resource with this reference. */
  has(resource: string, reference: string): boolean {
    return this.entries.some((e) => e.resource === resource && e.reference === reference);
  }

  /** What is left on the target: created and not deleted. */
  left(): ResidueEntry[] {
    return this.entries.filter((e) => !e.deleted);
  }

  /**
   * A record's id: from an answer, else what its resource's id source has told the run so far (without asking). A
   * service may create several records with one key (the same batch sent twice): the ids learnt for a key go to its
   * records in the order they were created, each id to one record, and an id an answer gave one of them to no other.
   */
  knownId(entry: ResidueEntry): Id | undefined {
    if (entry.id !== undefined) return entry.id;
    const key = this.keys.get(entry);
    if (!key || !this.ids || !isIdSourceResource(entry.resource)) return undefined;
    const group = this.entries.filter((e) => e.resource === entry.resource && sameKey(this.keys.get(e), key));
    const taken = new Set(group.filter((e) => e.id !== undefined).map((e) => String(e.id)));
    const free = this.ids.all(entry.resource, key).filter((id) => !taken.has(id));
    for (const e of group) {
      if (e.id !== undefined) continue;
      const next = free.shift();
      if (next === undefined) break;
      e.id = asId(next);
    }
    return entry.id;
  }

  /** A record's id, asking its resource's id source when the run has not learnt it yet (once per resource that fails). */
  async idOf(entry: ResidueEntry): Promise<Id | undefined> {
    const known = this.knownId(entry);
    const key = this.keys.get(entry);
    if (known !== undefined || !key || !this.ids?.has(entry.resource) || this.silent.has(entry.resource) || !isIdSourceResource(entry.resource)) return known;
    const got = await this.ids.learn(entry.resource, key);
    if ('id' in got) return this.knownId(entry);
    this.silent.add(entry.resource);
    return undefined;
  }

  private created(caseId: string, op: Operation, ex: Exchange, body: Record<string, unknown>[]): void {
    const { identity, idKey } = resourceInfo(op.resource);
    const data = bodyObject(ex)?.['data'];
    // Where data names its records, it says which items were created (an item a limit refused is not among them);
    // where it names none ({message} only), every valid item counts.
    const named = Array.isArray(data) && data.some((r) => readPath(r, identity) !== undefined);
    const matched = new Set<unknown>();
    for (const item of body) {
      const key = item[identity];
      // Items may share an identity (many activities of one reference): each takes the next unmatched record.
      const created = Array.isArray(data) ? data.find((r) => !matched.has(r) && readPath(r, identity) === key) : undefined;
      if (created) matched.add(created);
      // An invalid item counts only when the answer says it was created anyway (a lenient server).
      if ((named || this.invalidItems.has(item)) && !created) continue;
      const id = readPath(created, 'id');
      // An id beyond 2^53 is read as the nearest double: kept, it would name another record. The reference stays.
      const rounded = typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id);
      const entry: ResidueEntry = {
        resource: op.resource, operationId: op.operationId, reference: String(key), caseId,
        createdAt: ex.startedAt, deleted: false, ...((typeof id === 'number' || typeof id === 'string') && !rounded ? { id } : {}),
      };
      this.entries.push(entry);
      this.keys.set(entry, Object.fromEntries(idKey.map((f) => [f, String(item[f] ?? '')])));
    }
  }
}
