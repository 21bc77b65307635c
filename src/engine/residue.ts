// The residue ledger: what the run created on the target (and deleted again), so the report can list what is left.
// One ledger per run, shared by every case.
import { bodyObject, outcomeOf } from '../checks/registry.js';
import { resourceInfo, type Operation } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import type { Exchange, ResidueEntry } from '../core/results.js';
import type { OutgoingRequest } from '../http/client.js';

export class ResidueLedger {
  readonly entries: ResidueEntry[] = [];

  /** @param invalidItems the create items the run spoiled on purpose (they count only when created anyway) */
  constructor(private readonly invalidItems: WeakSet<object>) {}

  /** Notes what an exchange of a case created or deleted. */
  record(caseId: string, op: Operation, ex: Exchange, body: unknown, request: OutgoingRequest): void {
    // A partial success may come with a 4xx: what data lists was created all the same.
    const listed = Array.isArray(bodyObject(ex)?.['data']) && (bodyObject(ex)?.['data'] as unknown[]).length > 0;
    if (outcomeOf(ex) !== 'success' && !listed) return;
    if (op.kind === 'batchCreate' && Array.isArray(body)) this.created(caseId, op, ex, body as Record<string, unknown>[]);
    if (op.kind === 'delete') {
      const last = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '');
      for (const entry of this.entries) {
        if (entry.resource === op.resource && (String(entry.id) === last || entry.reference === last)) entry.deleted = true;
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

  private created(caseId: string, op: Operation, ex: Exchange, body: Record<string, unknown>[]): void {
    const identity = resourceInfo(op.resource).identity;
    const data = bodyObject(ex)?.['data'];
    const matched = new Set<unknown>();
    for (const item of body) {
      const key = item[identity];
      // Items may share an identity (many activities of one reference): each takes the next unmatched record.
      const created = Array.isArray(data) ? data.find((r) => !matched.has(r) && readPath(r, identity) === key) : undefined;
      if (created) matched.add(created);
      // An invalid item counts only when the answer says it was created anyway (a lenient server).
      if (this.invalidItems.has(item) && !created) continue;
      const id = readPath(created, 'id');
      this.entries.push({
        resource: op.resource, operationId: op.operationId, reference: String(key), caseId,
        createdAt: ex.startedAt, deleted: false, ...(typeof id === 'number' || typeof id === 'string' ? { id } : {}),
      });
    }
  }
}
