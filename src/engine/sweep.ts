// The run's last act: delete, where the spec lets a client delete, the records the run created and its cases did not
// delete themselves (a lenient target that created an invalid batch item, a control that succeeded, a case cut
// short). The spec has a DELETE for jobboard job offers only (endpoint 20; endpoint 9 removes one attribute of an
// ATS job offer, which the record keeps): ATS job offers, application steps and jobboard activities cannot be
// deleted by any client, so they stay on the target (the residue the report lists). Never judged: a refused DELETE
// leaves the record in the residue, nothing more.
import type { ResidueEntry } from '../core/results.js';
import type { HttpClient } from '../http/client.js';
import { deletableById } from '../core/residue.js';

/**
 * Sends a DELETE for every ledger entry not yet deleted whose resource has one and whose id the run learnt; marks
 * the entries the target deleted (2xx). At most one request per entry. Returns how many were deleted.
 */
export async function sweepResidue(ledger: ResidueEntry[], http: HttpClient, baseUrl: string, token: () => Promise<string>): Promise<number> {
  const paths = deletableById();
  let deleted = 0;
  for (const entry of ledger) {
    const path = paths.get(entry.resource);
    if (entry.deleted || !path || entry.id === undefined) continue;
    const url = `${baseUrl.replace(/\/$/, '')}${path.replace('{id}', encodeURIComponent(String(entry.id)))}`;
    const ex = await http.send('sweep: delete what the run created', { method: 'DELETE', url, headers: { accept: 'application/json', authorization: `Bearer ${await token()}` } });
    const status = ex.response?.status ?? 0;
    if (status >= 200 && status < 300) {
      // The same record may be in the ledger twice (created by one case, named by another's control).
      for (const e of ledger) if (e.resource === entry.resource && String(e.id) === String(entry.id)) e.deleted = true;
      deleted += 1;
    }
  }
  return deleted;
}
