// How much a run leaves on its target, and why: derived from the residue ledger in one place, written into
// report.json (residueSummary) by the engine and by a merge, and read by the console and report.html. The spec has a
// DELETE for jobboard job offers only, so what a run creates of the other resources stays (docs/residue.md).
import { operations } from '../spec/index.js';
import type { ResidueEntry } from './results.js';

export interface ResidueSummary {
  /** Records the run created and did not delete. */
  records: number;
  /** The same, per resource ("jobboard-activity": 310). */
  byResource: Record<string, number>;
  /** Why they stay, in a sentence. */
  why: string;
}

/** The resources a client can delete by {id} alone, with the path template of that DELETE (the run's sweep uses it). */
export function deletableById(): Map<string, string> {
  return new Map(operations().filter((op) => op.method === 'DELETE' && /^[^{]*\{id\}$/.test(op.path)).map((op) => [op.resource, op.path]));
}

/** The resources the spec has a DELETE for: by {id} alone (true), or only inside their parent record (false). */
const deletes = (): Map<string, boolean> => {
  const byId = deletableById();
  return new Map(operations().filter((o) => o.method === 'DELETE').map((o) => [o.resource, byId.has(o.resource)]));
};

export function residueSummary(residue: ResidueEntry[]): ResidueSummary {
  // Resource names come from report files too (a merge): no prototype to write through.
  const byResource: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const e of residue) byResource[e.resource] = (byResource[e.resource] ?? 0) + 1;
  const canDelete = deletes();
  const entries = Object.entries(byResource);
  const list = (picked: [string, number][]): string => picked.map(([r, n]) => `${n} ${r}`).join(', ');
  const none = entries.filter(([r]) => !canDelete.has(r));
  const inParent = entries.filter(([r]) => canDelete.get(r) === false);
  const refused = entries.filter(([r]) => canDelete.get(r) === true);
  const parts: string[] = [];
  if (none.length) parts.push(`the spec has no DELETE for ${none.map(([r]) => r).join(', ')}, so ${list(none)} record(s) stay`);
  if (inParent.length) parts.push(`${list(inParent)} record(s) belong to records that stay and are left on them`);
  if (refused.length) parts.push(`${list(refused)} record(s) were not deleted: the DELETE was refused or got no answer, or the run never learnt their id`);
  return { records: residue.length, byResource, why: parts.length ? `${parts.join('; ')}.` : 'the run deleted everything it created.' };
}

/** "Residue: 638 record(s) left on the target: why. …": one line for the console. */
export function residueLine(s: ResidueSummary): string {
  return `Residue: ${s.records} record(s) left on the target: ${s.why} They are listed in report.json (docs/residue.md).`;
}
