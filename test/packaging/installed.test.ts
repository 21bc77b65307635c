// The package as a vendor installs it: `npm pack`, then `npm install --omit=dev <tarball>` in an empty project, and
// everything the README promises run from that install (its node_modules/.bin/rdx and `import 'rdx-conformance'`),
// never from this checkout. A runtime import of a devDependency, a file left out of `files`, a bin without its
// shebang: each breaks one of these. One install is shared by all cases.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch, type RequestInit } from 'undici';
import { packageRoot } from '../../src/spec/index.js';
import { DEMO_CLIENT, installPacked, latestReport, runProgram, uncounted, verdictOf, writeVendorProfile, type Installed, type Outcome } from '../support/package.js';

/** Generous: a full run on a loaded 2-core machine. Only a limit, never a speed assertion. */
const RUN_LIMIT_MS = 240_000;

/** Every program these tests run is the install's, npm or tsc: none whose coverage c8 can count. */
const exec = (command: string, args: string[], options: { cwd: string; env?: Record<string, string>; limitMs?: number }): Promise<Outcome> =>
  runProgram(command, args, { ...options, limitMs: options.limitMs ?? RUN_LIMIT_MS, uncounted: true });

/** `rdx simulate` from the install, on a free loopback port, until stop(). */
async function simulate(
  bin: string, cwd: string, args: string[] = [], env: Record<string, string> = {},
): Promise<{ baseUrl: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(bin, ['simulate', '--host', '127.0.0.1', '--port', '0', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...uncounted(process.env), ...env } });
  let out = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const limit = setTimeout(() => reject(new Error(`rdx simulate did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url && out.includes('Ctrl-C')) {
        clearTimeout(limit);
        resolve(url);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(limit);
      reject(new Error(`rdx simulate exited with ${String(code)}:\n${out}`));
    });
  });
  const stop = (): Promise<void> => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const limit = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(limit);
      resolve();
    });
    child.kill('SIGINT');
  });
  return { baseUrl, child, stop };
}

interface Body {
  message?: string;
  data?: Record<string, unknown>[];
  access_token?: string;
}

// A fresh connection per request: a pooled keep-alive socket the simulator has just closed (after its idle timeout,
// while a long run went on) would fail the next request with ECONNRESET, a failure of the test, not of the package.
const fresh = new Agent({ pipelining: 0 });

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Body }> {
  const res = await fetch(url, { ...init, dispatcher: fresh, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: (await res.json()) as Body };
}

describe('the packed package, installed with --omit=dev', function () {
  this.timeout(RUN_LIMIT_MS);
  let installed: Installed;
  let work: string;

  before(async function () {
    this.timeout(600_000);
    installed = await installPacked();
    work = mkdtempSync(join(installed.project, 'work-'));
  });

  after(() => installed?.remove());

  it('installs no devDependency', () => {
    const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; dependencies: Record<string, string> };
    const tree = JSON.parse(readFileSync(join(installed.project, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const top = new Set(Object.keys(tree.packages).map((p) => p.replace(/^.*node_modules\//, '')));
    for (const name of Object.keys(own.dependencies)) expect(top, name).to.include(name);
    // Dev-only tools: present in a dev checkout, absent from a production install (unless a dependency needs them).
    for (const name of ['typescript', 'eslint', 'c8', 'chai', 'playwright-core']) expect(top, name).not.to.include(name);
    // testcontainers is a runtime dependency: a production install has it, so --image works from one.
    expect(top, 'testcontainers').to.include('testcontainers');
  });

  it('loads the module behind --image (it imports testcontainers) from a production install', async () => {
    // Imported in a child of the consumer project, as `rdx run --image` loads it (src/container/load.ts).
    const module = join(installed.packageDir, 'dist', 'src', 'container', 'index.js');
    const r = await exec(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(module)}); console.log(typeof m.withContainer);`], { cwd: work, limitMs: 60_000 });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('function');
  });

  it("rdx --version prints the harness's version, not that of the project it is installed in", async () => {
    const own = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const project = (JSON.parse(readFileSync(join(installed.project, 'package.json'), 'utf8')) as { version: string }).version;
    expect(project, 'the consumer project must differ for this to prove anything').to.not.equal(own);
    for (const cwd of [work, installed.project]) {
      const r = await exec(installed.bin, ['--version'], { cwd, limitMs: 60_000 });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout.trim(), `from ${cwd}`).to.equal(own);
    }
    // As the README runs it inside a project: `npx --no -- rdx <command>` takes the project's own bin, never the
    // registry (offline here, so a registry look-up would fail the test rather than run anything), and hands rdx every
    // flag: without `--`, npx answered --version and --help itself, with npm's.
    const npx = (args: string[]): ReturnType<typeof exec> => exec(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--no', '--', 'rdx', ...args], {
      cwd: installed.project, limitMs: 120_000, env: { npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    const help = await npx(['simulate', '--help']);
    expect(help.code, help.stderr).to.equal(0);
    expect(help.stdout).to.include('rdx simulate').and.include('--public-url');
    const version = await npx(['--version']);
    expect(version.code, version.stderr).to.equal(0);
    expect(version.stdout.trim()).to.equal(own);
    const topHelp = await npx(['--help']);
    expect(topHelp.stdout).to.include('rdx <command>');
  });

  it('answers --help for rdx and for every command it lists', async () => {
    const top = await exec(installed.bin, ['--help'], { cwd: work, limitMs: 60_000 });
    expect(top.code, top.stderr).to.equal(0);
    const commands = [...top.stdout.matchAll(/^\s+rdx (\w+)/gm)].map((m) => m[1] as string);
    expect(commands).to.include.members(['run', 'list', 'validate', 'init', 'simulate', 'report', 'verify']);
    for (const command of commands) {
      const r = await exec(installed.bin, [command, '--help'], { cwd: work, limitMs: 60_000 });
      expect(r.code, `rdx ${command} --help: ${r.stderr}`).to.equal(0);
      expect(r.stdout, `rdx ${command} --help`).to.include(`rdx ${command}`);
      expect(r.stderr, `rdx ${command} --help`).to.equal('');
    }
  });

  it('rdx run against the embedded simulator exits 0 with a conformant report', async () => {
    const reports = join(work, 'embedded');
    const r = await exec(installed.bin, ['run', '-R', 'dot', '--report-dir', reports], { cwd: work });
    expect(r.code, r.stderr).to.equal(0);
    const report = latestReport(reports);
    expect(report.run.target.embedded).to.equal(true);
    expect(report.summary.total).to.be.above(200);
    expect(verdictOf(report), JSON.stringify(report.summary)).to.equal('CONFORMANT');
  });

  describe('rdx simulate from the install as the target', () => {
    let sim: Awaited<ReturnType<typeof simulate>>;

    before(async () => {
      sim = await simulate(installed.bin, work);
    });

    after(async () => sim?.stop());

    it('rdx run --base-url judges it CONFORMANT, with the fixtures a vendor would give (every MUST case judged)', async () => {
      const config = await writeVendorProfile(sim.baseUrl, work);
      const reports = join(work, 'external');
      const r = await exec(installed.bin, ['run', '--base-url', sim.baseUrl, '--client-id', DEMO_CLIENT.id, '--config', config,
        '--allow-irreversible', '-R', 'dot', '--report-dir', reports], { cwd: work, env: { RDX_CLIENT_SECRET: DEMO_CLIENT.secret } });
      expect(r.code, r.stderr).to.equal(0);
      const report = latestReport(reports);
      expect(report.run.target).to.deep.include({ baseUrl: sim.baseUrl, embedded: false });
      expect(report.summary.total).to.be.above(200);
      // With those fixtures and --allow-irreversible every MUST case is judged.
      expect(report.summary.byLevel['MUST']?.['skip'] ?? 0, JSON.stringify(report.summary.byLevel)).to.equal(0);
      expect(verdictOf(report), JSON.stringify(report.summary)).to.equal('CONFORMANT');
    });

    it("the dashboard's Run conformance (admin API) ends with a verdict, not NOT JUDGED", async () => {
      // As the dashboard page asks: its API under /__admin/api/, changes marked with the x-rdx-dashboard header.
      const started = await json(`${sim.baseUrl}/__admin/api/runs`, { method: 'POST', headers: { 'x-rdx-dashboard': '1' } });
      expect(started.status, JSON.stringify(started.body)).to.equal(202);
      const n = started.body.data?.[0]?.['n'];
      let run: Record<string, unknown> | undefined;
      // Bounded in count and time (the suite's own timeout): poll until the run has ended.
      for (let i = 0; i < 400; i++) {
        run = (await json(`${sim.baseUrl}/__admin/api/runs/${String(n)}`)).body.data?.[0];
        if (run?.['state'] !== 'running') break;
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(run?.['error'], JSON.stringify(run)).to.equal(undefined);
      expect(run?.['state'], JSON.stringify(run)).to.equal('done');
      // The run card states the verdict and counts of the run's report (simulator/dashboard/runs.ts runCard).
      const card = run?.['card'] as { verdict: string; unjudgedMust: number; total: number } | undefined;
      expect(card?.verdict, JSON.stringify(run)).to.equal('CONFORMANT');
      expect(card?.unjudgedMust, JSON.stringify(run)).to.equal(0);
      expect(card?.total).to.be.above(200);
    });
  });

  // README steps 2-6 as a vendor with hidden ids follows them: init, a first run that says what it lacks, the profile
  // filled in with id logs and fixtures, a signed bundle, verify, diff, badge. The time from `rdx init` to a verified
  // bundle is printed (a measurement, never asserted).
  describe("the README's vendor path against an implementation whose ids are hidden", () => {
    let sim: Awaited<ReturnType<typeof simulate>>;
    let dir: string;
    let logs: string;

    before(async () => {
      dir = mkdtempSync(join(installed.project, 'vendor-'));
      logs = mkdtempSync(join(installed.project, 'id-logs-'));
      sim = await simulate(installed.bin, dir, ['--variant', 'message-only-with-id-logs'], { RDX_SIM_ID_LOG_DIR: logs });
    });

    after(async () => sim?.stop());

    it('goes from rdx init to a verified signed bundle, a diff and a badge', async () => {
      const started = Date.now();
      const step = (what: string): void => console.log(`      ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
      const env = { RDX_CLIENT_SECRET: DEMO_CLIENT.secret };
      const rdx = (...args: string[]): Promise<Outcome> => exec(installed.bin, args, { cwd: dir, env });

      const init = await rdx('init');
      expect(init.code, init.stderr).to.equal(0);
      const written = readFileSync(join(dir, 'rdx.config.yaml'), 'utf8');
      for (const key of ['atsJobOffer', 'applicationStep', 'jobboardActivity', 'jobboardJobOffer']) expect(written, `rdx init writes idSources.${key}`).to.include(key);
      step('rdx init');

      // The first run, with nothing but the base URL and credentials: not certifiable, and it says what would unlock it.
      writeFileSync(join(dir, 'empty.json'), '{}');
      const first = await rdx('run', '--base-url', sim.baseUrl, '--client-id', DEMO_CLIENT.id, '--config', join(dir, 'empty.json'), '-R', 'dot', '--report-dir', join(dir, 'first'));
      expect(first.code, first.stderr).to.equal(4);
      const before = latestReport(join(dir, 'first'));
      expect(verdictOf(before)).to.equal('INCOMPLETE');
      expect(JSON.stringify(before.summary)).to.include('idSources');
      step(`first run: INCOMPLETE, exit ${first.code}`);

      // The profile a vendor fills in: its id logs (one per resource, as the variant writes them), the number of one of
      // its ATS job offers (this variant numbers them in creation order) and an expired token.
      const file = (name: string): { file: string } => ({ file: join(logs, `rdx-simulator-${name}-ids.jsonl`) });
      const expired = await json(`${sim.baseUrl}/__admin/expired-token`, { method: 'POST', headers: { 'x-rdx-admin': '1' } });
      const profile = join(dir, 'rdx.config.json');
      writeFileSync(profile, JSON.stringify({
        baseUrl: sim.baseUrl,
        declared: { batchVariant: 'message-only', atsJobOfferId: 'fixtures' },
        fixtures: { expiredToken: expired.body.data?.[0]?.['access_token'], atsJobOfferIds: ['1'] },
        idSources: {
          atsJobOffer: file('ats-job-offer'), applicationStep: file('application-step'),
          jobboardActivity: file('jobboard-activity'), jobboardJobOffer: file('jobboard-job-offer'),
        },
      }));
      const keygen = await rdx('keygen', '--out', join(dir, 'rdx-signing-key.pem'));
      expect(keygen.code, keygen.stderr).to.equal(0);
      const second = await rdx('run', '--config', profile, '--client-id', DEMO_CLIENT.id, '--allow-irreversible', '--bundle', '--sign-key', join(dir, 'rdx-signing-key.pem'),
        '-R', 'dot', '--report-dir', join(dir, 'reports'));
      expect(second.code, `${second.stdout}\n${second.stderr}`).to.equal(0);
      const after = latestReport(join(dir, 'reports'));
      expect(verdictOf(after), JSON.stringify(after.summary)).to.equal('CONFORMANT');
      expect(after.summary.byLevel['MUST']?.['skip'] ?? 0, JSON.stringify(after.summary.byLevel)).to.equal(0);
      step('second run: CONFORMANT, signed bundle written');

      const bundle = join(dir, 'reports', 'latest', 'bundle.tar.gz');
      const verified = await rdx('verify', bundle, '--public-key', join(dir, 'rdx-signing-key.pem.pub'));
      expect(verified.code, `${verified.stdout}\n${verified.stderr}`).to.equal(0);
      step('rdx verify --public-key: exit 0 (time from rdx init to a verified bundle)');
      // Without the key it can only say the bundle agrees with itself (exit 5).
      expect((await rdx('verify', bundle)).code).to.equal(5);

      const firstReport = join(dir, 'first', 'latest', 'report.json');
      const latest = join(dir, 'reports', 'latest', 'report.json');
      const diff = await rdx('diff', firstReport, latest);
      expect(diff.code, `${diff.stdout}\n${diff.stderr}`).to.equal(0);
      expect(diff.stdout).to.match(/INCOMPLETE/).and.match(/CONFORMANT/);
      const badge = await rdx('badge', bundle, '--public-key', join(dir, 'rdx-signing-key.pem.pub'), '--out', join(dir, 'badge.svg'));
      expect(badge.code, `${badge.stdout}\n${badge.stderr}`).to.equal(0);
      expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).to.match(/^<svg/).and.include('CONFORMANT');
      step('rdx diff and rdx badge');
    });
  });

  it('is importable as a consumer imports it, and its types check a consumer file (tsc, then node runs it)', async () => {
    const project = installed.project;
    // A clause the check may judge: any of the register's.
    const clause = /^\s*- id: ([A-Z_.]+)/m.exec(readFileSync(join(packageRoot, 'spec', 'clauses.yaml'), 'utf8'))?.[1];
    writeFileSync(join(project, 'consumer.ts'), CONSUMER.replace('__CLAUSE__', String(clause)));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        // skipLibCheck off: the installed declarations themselves are checked, with only production dependencies.
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false,
        // A consumer's own @types/node (this checkout's); nothing else of our devDependencies is visible.
        typeRoots: [join(packageRoot, 'node_modules', '@types')], types: ['node'],
      },
      files: ['consumer.ts'],
    }));
    const tsc = join(packageRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await exec(process.execPath, [tsc, '-p', project], { cwd: project });
    expect(checked.code, `tsc:\n${checked.stdout}${checked.stderr}`).to.equal(0);
    const r = await exec(process.execPath, [join(project, 'consumer.js')], { cwd: project });
    expect(r.code, r.stderr).to.equal(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).to.deep.include({ verdict: 'INCOMPLETE', exitCode: 0, embedded: false, check: 'consumer.always-passes', status: 200, bundleExit: 0, trust: 'signed' });
    expect(out['total']).to.be.above(3);
  });
});

/** A consumer's file: the API with its types, and one line that must not type-check (the types are not `any`). */
const CONSUMER = `import { runConformance, startSimulator, defineCheck, pass, EXIT, type Check, type CaseResult, type Exchange,
  type RunReport, type RunVerdict, type Summary, type Verdict, createBundle, generateKeyPair, verifyBundle,
  type BundleVerification, type WrittenBundle } from 'rdx-conformance';

const check: Check = defineCheck({
  id: 'consumer.always-passes', description: 'A check defined by a consumer', clauses: ['__CLAUSE__'],
  run: (ctx) => [pass('__CLAUSE__', 'seen ' + ctx.exchange.step)],
});

const sim = await startSimulator({ host: '127.0.0.1', port: 0, records: 50 });
try {
  const result = await runConformance({
    baseUrl: sim.baseUrl, clientId: sim.options.clientId, clientSecret: sim.options.clientSecret,
    // A subset leaves MUST cases unjudged: INCOMPLETE, which this consumer accepts.
    filters: { grep: '^envelope\\\\.' }, env: {}, allowIncomplete: true,
  });
  const report: RunReport = result.report;
  const verdict: RunVerdict = result.verdict;
  const summary: Summary = report.summary;
  const first: CaseResult | undefined = report.cases[0];
  const exchange: Exchange | undefined = first?.exchanges.find((e) => e.response?.status === 200);
  const verdicts: Verdict[] = report.cases.map((c) => c.verdict);
  // @ts-expect-error a run's verdict is not a case's verdict
  const wrong: Verdict = verdict;
  void wrong;
  // A signed bundle of the run, checked with the public key as rdx verify checks it.
  const keys = generateKeyPair();
  const bundle: WrittenBundle = createBundle(report, 'bundle-out', { signKey: keys.privateKey });
  const checked: BundleVerification = verifyBundle(bundle.file, { publicKey: keys.publicKey });
  console.log(JSON.stringify({
    verdict, exitCode: result.exitCode, ok: EXIT.OK, total: summary.total, cases: verdicts.length,
    status: exchange?.response?.status, embedded: report.run.target.embedded, check: check.id,
    bundleExit: checked.exitCode, trust: checked.status === 'ok' ? checked.trust : checked.status,
  }));
} finally {
  await sim.close();
}
`;
