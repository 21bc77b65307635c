// The run's last act: delete, where the spec lets a client delete, the records the run created and its cases did not
// delete themselves (a lenient target that created an invalid batch item, a control that succeeded, a case cut
// short). The spec has a DELETE for jobboard job offers only (endpoint 20; endpoint 9 removes one attribute of an
// ATS job offer, which the record keeps): ATS job offers, application steps and jobboard activities cannot be
// deleted by any client, so they stay on the target (the residue the report lists). Never judged: a refused DELETE
// leaves the record in the residue, nothing more.
import type { ResidueEntry } from '../core/results.js';
import type { TokenSender } from '../http/auth.js';
import { deletableById } from '../core/residue.js';
import { allLimited } from '../core/limit.js';

/** What the sweep did: the records it sent a DELETE for, those the target deleted, the throttled answers it met. */
export interface SweepOutcome {
  records: number;
  deleted: number;
  throttled: number;
}

/**
 * Sends a DELETE for every record in the ledger not yet deleted whose resource has one and whose id the run learnt
 * (from an answer, or from the resource's id source: `idOf`), one per record however many entries name it, up to
 * `concurrency` at a time, with the run's token (a fresh one after a 401); marks the entries of the records the
 * target deleted (2xx).
 */
export async function sweepResidue(ledger: ResidueEntry[], tokens: TokenSender, baseUrl: string,
  concurrency = 1, idOf: (entry: ResidueEntry) => Promise<number | string | undefined> = (e) => Promise.resolve(e.id)): Promise<SweepOutcome> {
  const paths = deletableById();
  // The same record may be in the ledger twice (created by one case, named by another's control).
  const records = new Map<string, { url: string; entries: ResidueEntry[] }>();
  for (const entry of ledger) {
    const path = paths.get(entry.resource);
    if (entry.deleted || !path) continue;
    const id = await idOf(entry);
    if (id === undefined) continue;
    entry.id = id;
    const key = `${entry.resource} ${String(id)}`;
    const url = `${baseUrl.replace(/\/$/, '')}${path.replace('{id}', encodeURIComponent(String(id)))}`;
    records.set(key, { url, entries: [...(records.get(key)?.entries ?? []), entry] });
  }
  let deleted = 0;
  let throttled = 0;
  await allLimited(Math.max(1, Math.floor(concurrency)), [...records.values()].map((record) => async (): Promise<void> => {
    const ex = await tokens.send('sweep: delete what the run created', { method: 'DELETE', url: record.url, headers: { accept: 'application/json' } });
    const status = ex.response?.status ?? 0;
    throttled += ex.throttled?.answers ?? 0;
    if (status >= 200 && status < 300) {
      for (const e of record.entries) e.deleted = true;
      deleted += 1;
    }
  }));
  return { records: records.size, deleted, throttled };
}
