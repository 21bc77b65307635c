// Where the simulator's id-log variants write: one JSON-lines file per resource, named by the resource alone in
// $RDX_SIM_ID_LOG_DIR, so a simulator started again with the same directory writes to the same files and a profile
// that names them (idSources.*.file) keeps working. Without the directory, the files go into the temp directory with
// the process id in their names: simulators of parallel test runs never share one (nor delete another's).
import { appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The environment variable that names the directory of the id logs. */
export const ID_LOG_DIR_ENV = 'RDX_SIM_ID_LOG_DIR';

/** The id log named `name` ("ats-job-offer"): `<dir>/rdx-simulator-<name>-ids.jsonl`, absolute. */
export function idLogPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[ID_LOG_DIR_ENV];
  return dir ? resolve(dir, `rdx-simulator-${name}-ids.jsonl`) : join(tmpdir(), `rdx-simulator-${name}-ids-${process.pid}.jsonl`);
}

const made = new Set<string>();

/** Appends lines to an id log, making its directory the first time. */
export function appendIdLog(file: string, text: string): void {
  const dir = dirname(file);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  appendFileSync(file, text);
}
