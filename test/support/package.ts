// The package as users get it: the file list `npm pack` would publish, and the packed tarball installed the way a
// vendor installs it (production dependencies only) into an empty project. Run after the build (npm test builds).
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../src/spec/index.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** npm on a loaded machine, with the registry reached for what its cache lacks: generous. */
const NPM_LIMIT_MS = 300_000;

export interface PackFile {
  path: string;
  size: number;
}

export interface PackList {
  files: PackFile[];
  entryCount: number;
  /** Bytes of the .tgz. */
  size: number;
  unpackedSize: number;
}

/**
 * The environment without NODE_V8_COVERAGE, for a process whose coverage c8 cannot count: npm, tsc, and the installed
 * package (outside this tree, the only one c8 reports on). Collected, it costs the process V8's counters in every
 * function it runs, and c8 reads it only to throw it away.
 */
export function uncounted(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // Empty, not left out: Node hands its own NODE_V8_COVERAGE to a child whose environment lacks one.
  return { ...env, NODE_V8_COVERAGE: '' };
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run(NPM, args, {
    cwd,
    timeout: NPM_LIMIT_MS,
    maxBuffer: 64 * 1024 * 1024,
    // --ignore-scripts: the caller has built already; `prepack` would rebuild.
    env: uncounted({ ...process.env, npm_config_ignore_scripts: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }),
  });
  return stdout;
}

function packJson(stdout: string): PackList {
  const list = JSON.parse(stdout) as (PackList & { filename: string })[];
  const first = list[0];
  if (!first) throw new Error(`npm pack --json printed no package: ${stdout.slice(0, 200)}`);
  return first;
}

let listed: Promise<PackList> | undefined;

/** What `npm pack` would put in the tarball (from the current dist/). */
export function packList(): Promise<PackList> {
  listed ??= npm(['pack', '--dry-run', '--json'], packageRoot).then(packJson);
  return listed;
}

/** Packs the package (as built) into the folder; returns the tarball's path. */
export async function packInto(folder: string): Promise<string> {
  const packed = JSON.parse(await npm(['pack', '--json', '--pack-destination', folder], packageRoot)) as { filename: string; name: string }[];
  const filename = packed[0]?.filename;
  if (!filename) throw new Error('npm pack printed no file name');
  return join(folder, filename);
}

export interface Installed {
  /** The consumer project: package.json, node_modules/rdx-conformance. */
  project: string;
  /** node_modules/.bin/rdx of the project, as `npx rdx` runs it. */
  bin: string;
  /** The installed package's folder. */
  packageDir: string;
  tarball: string;
  remove(): void;
}

/**
 * Packs the package and installs the tarball with --omit=dev into a fresh project (npm's cache first, the registry
 * for what it lacks), as `npm install --omit=dev ./rdx-conformance-x.y.z.tgz` in a vendor's project.
 */
export async function installPacked(): Promise<Installed> {
  const root = mkdtempSync(join(tmpdir(), 'rdx-packed-'));
  try {
    const tarball = await packInto(root);
    const project = join(root, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'rdx-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    await npm(['install', '--omit=dev', '--prefer-offline', '--no-package-lock', tarball], project);
    const packageDir = join(project, 'node_modules', 'rdx-conformance');
    return { project, bin: join(project, 'node_modules', '.bin', 'rdx'), packageDir, tarball, remove: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program to its end, killed at `limitMs` (a bound, never a speed assertion). RDX_* variables of this
 * process are left out, so a run sees only what the test gives it; `uncounted`: a program whose coverage cannot
 * count (see uncounted()).
 */
export function runProgram(
  command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; limitMs: number; uncounted?: boolean },
): Promise<Outcome> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_')));
  const env = { ...(options.uncounted ? uncounted(inherited) : inherited), ...options.env };
  const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  let killed = false;
  const limit = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, options.limitMs);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      clearTimeout(limit);
      resolve({ code: null, stdout, stderr: `${stderr}${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(limit);
      // A failed assertion on the code then says why there is none, instead of "expected null to equal 0".
      const why = killed ? `\n(${command} was killed at the test's limit of ${options.limitMs} ms)` : '';
      resolve({ code, stdout, stderr: `${stderr}${why}` });
    });
  });
}

/** The parts of report.json these tests read. */
export interface ReportJson {
  run: { target: { baseUrl: string; embedded: boolean } };
  summary: { total: number; conformant: boolean; verdict: string; byLevel: Record<string, Record<string, number>> };
}

export function latestReport(reportDir: string): ReportJson {
  return JSON.parse(readFileSync(join(reportDir, 'latest', 'report.json'), 'utf8')) as ReportJson;
}

/** The run's verdict as report.json states it. */
export function verdictOf(report: ReportJson): string {
  return report.summary.verdict;
}

/** The simulator's demo credentials (`rdx simulate` without RDX_SIM_CLIENT_*). */
export const DEMO_CLIENT = { id: 'rdx-client', secret: 'rdx-secret' };

/**
 * Writes the profile a vendor would give for a simulator at `baseUrl` (demo credentials): the fixtures that let the
 * cases needing them run, an expired token (from the admin surface) and an existing ATS job offer. Returns its path.
 */
export async function writeVendorProfile(baseUrl: string, dir: string): Promise<string> {
  const post = { method: 'POST', headers: { 'content-type': 'application/json' } };
  const call = async (path: string, init: RequestInit = {}): Promise<{ access_token?: string; data?: Record<string, unknown>[] }> => {
    const res = await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { access_token?: string; data?: Record<string, unknown>[] };
  };
  const token = await call('/oauth2/token', { ...post, body: JSON.stringify({ client_id: DEMO_CLIENT.id, client_secret: DEMO_CLIENT.secret, grant_type: 'client_credentials' }) });
  const offers = await call('/ats/job-offers', { headers: { authorization: `Bearer ${String(token.access_token)}` } });
  const reference = offers.data?.[0]?.['reference'];
  if (typeof reference !== 'string') throw new Error(`no seeded ATS job offer at ${baseUrl}`);
  // State-changing admin calls say so with x-rdx-admin (a cross-site page cannot send it).
  const expired = await call('/__admin/expired-token', { method: 'POST', headers: { 'x-rdx-admin': '1' } });
  const file = join(dir, 'rdx.config.json');
  writeFileSync(file, JSON.stringify({ fixtures: { expiredToken: expired.data?.[0]?.['access_token'], atsJobOfferIds: [reference] } }));
  return file;
}
