// A real report whose failures are read-back symptoms of one cause: the bundled simulator with the
// patch-clears-unspecified fault, on the chains that patch and read back (WRITE.PATCH_PARTIAL on three resources,
// WRITE.READ_BACK on jobboard job offers), an explore case that finds the fault and one that passes.
import { defaults } from '../../src/config/profile.js';
import { embeddedSimulator } from '../../src/compose.js';
import { runConformance, type RunReport } from '../../src/engine/run.js';
import { personaByName } from '../../simulator/personas/index.js';

export const READ_BACK_GREP = '^(job-offers|application-steps|activities)\\.create-read-replace-patch |^jobboard-job-offers\\.batch-all-valid |^explore\\.application-steps |^explore\\.credentials ';

export async function readBackReport(): Promise<RunReport> {
  const persona = personaByName('patch-clears-unspecified');
  if (!persona) throw new Error('no persona patch-clears-unspecified');
  const { report } = await runConformance({
    profile: { ...defaults(), explore: { requests: 300, seconds: 20 } },
    reporter: 'none',
    filters: { grep: READ_BACK_GREP },
    simulator: embeddedSimulator({ personas: [persona] }),
  });
  return report;
}
