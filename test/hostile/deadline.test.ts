// A slow target cannot hold a run for requests × timeout, and stopping a run never loses it: with --deadline the
// cases left are "not run (deadline)" and the reports are written; SIGINT and SIGTERM write partial reports too
// ("not run (interrupted)") and exit 130 and 143. The target is a loopback server that takes 1 s per answer.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaults, type Profile } from '../../src/config/profile.js';
import { planCases } from '../../src/engine/plan.js';
import type { CaseResult } from '../../src/core/results.js';
import { runConformance, type RunReport } from '../../src/engine/run.js';
import { loadSuites } from '../../src/engine/suite.js';
import { duration } from '../../src/cli/commands/run.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const SECRET = 'deadline-secret-2c9e71';
const SLOW_MS = 1_000;
/** Read-only and write cases alike, dozens of requests: a minute or more against this target if nothing stopped it. */
const GREP = '^(auth\\.|envelope\\.)';

async function slowTarget(): Promise<{ server: Server; url: string; timers: Set<NodeJS.Timeout> }> {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith('/oauth2/token')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'deadline-token-8d0a3f51', token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"ok","data":[],"meta":{"next_link":null}}');
    }, SLOW_MS);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timers };
}

/**
 * The run stopped at its deadline: not before it, and nothing was sent after the stop; the cases are all in the
 * report. What an unstopped run would show instead (every case run, a minute against this target) needs no clock.
 */
function expectStoppedAtDeadline(report: RunReport, deadlineMs: number): void {
  expect(report.run.stopped?.reason).to.equal('deadline');
  const stoppedAt = Date.parse(report.run.stopped?.at ?? '');
  expect(stoppedAt - Date.parse(report.run.startedAt), 'stopped before its deadline').to.be.at.least(deadlineMs - 5);
  const late = report.cases.flatMap((c) => c.exchanges.filter((e) => Date.parse(e.startedAt) > stoppedAt).map((e) => `${c.id}: ${e.step} at ${e.startedAt}`));
  expect(late, 'requests sent after the stop').to.deep.equal([]);
}

/** A stopped run is never conformant: NOT_CONFORMANT (exit 1) when a case that ran failed, else INCOMPLETE (exit 4). */
function stoppedExitCode(report: RunReport): number {
  expect(report.summary.verdict).to.be.oneOf(['NOT_CONFORMANT', 'INCOMPLETE']);
  return report.summary.verdict === 'NOT_CONFORMANT' ? 1 : 4;
}

const notRun = (cases: CaseResult[], why: string): CaseResult[] => cases.filter((c) => c.verdict === 'skip' && c.reason?.startsWith(`not run (${why})`));

describe('a run stopped early still reports every case (deadline, SIGINT, SIGTERM)', function () {
  this.timeout(40_000);
  let target: Awaited<ReturnType<typeof slowTarget>>;
  let dir: string;
  const planned = planCases(loadSuites(), { grep: GREP }).cases.map((c) => c.id);
  before(async () => {
    target = await slowTarget();
  });
  after(async () => {
    target.timers.forEach(clearTimeout);
    target.server.closeAllConnections();
    await new Promise<void>((resolve) => target.server.close(() => resolve()));
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-deadline-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ends at the deadline, the cases left "not run (deadline)", the run not conformant', async () => {
    expect(planned.length, 'enough cases to outlast the deadline').to.be.above(20);
    const profile: Profile = { ...defaults(), baseUrl: target.url, clientId: 'deadline', clientSecret: SECRET, http: { ...defaults().http, timeoutMs: 5_000 } };
    // A deadline that passes before the token came: every case not run, still a report (and the modules a run
    // loads are loaded, so the timing below measures the stop, not a cold start).
    const early = await runConformance({ profile, reporter: 'none', filters: { grep: GREP }, deadlineMs: 1 });
    expect(notRun(early.report.cases, 'deadline')).to.have.length(planned.length);
    const { report, exitCode } = await runConformance({ profile, reporter: 'none', filters: { grep: GREP }, deadlineMs: 1_500 });
    // Stopped at the deadline, not before it and not at the end: no wall-clock bound, which a loaded machine breaks.
    expectStoppedAtDeadline(report, 1_500);
    expect(report.cases.map((c) => c.id).sort()).to.deep.equal([...planned].sort());
    const left = notRun(report.cases, 'deadline');
    expect(left.length).to.be.at.least(planned.length / 2);
    expect(report.run.stopped?.reason).to.equal('deadline');
    expect(report.run.stopped?.notRun).to.equal(left.length);
    // A request cut off by the stop is not the target's fault: no case is an error because of it.
    expect(report.cases.filter((c) => c.verdict === 'error').map((c) => `${c.id}: ${c.reason}`)).to.deep.equal([]);
    expect(report.summary.conformant).to.equal(false);
    // The exit code of its verdict: 1 when a case that ran failed a MUST clause (this target answers 200 to all), else
    // 4 (INCOMPLETE); never 70 (a crash).
    expect(exitCode).to.equal(stoppedExitCode(report));
  });

  /** Starts `rdx run` against the slow target, sends `signal` `afterMs` after its first case began, and returns how it ended. */
  function interrupted(
    signal: NodeJS.Signals | undefined, afterMs: number, extra: string[] = [],
  ): Promise<{ code: number | null; stderr: string; ms: number }> {
    const started = performance.now();
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, 'run', '--base-url', target.url, '--client-id', 'deadline', '--grep', GREP, '-R', 'spec', '--report-dir', 'out', ...extra], {
        cwd: dir, env: { ...process.env, RDX_CLIENT_SECRET: SECRET, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      // The summary lines follow the reporter on stdout, errors and the signal notice go to stderr: both are read.
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      let poke: NodeJS.Timeout | undefined;
      // The spec reporter names the first suite as it begins: the run is under way, its signal handlers in place.
      child.stdout.on('data', (chunk: Buffer) => {
        if (signal && !poke && /\S/.test(chunk.toString())) poke = setTimeout(() => child.kill(signal), afterMs);
      });
      child.on('exit', (code) => {
        clearTimeout(killer);
        clearTimeout(poke);
        resolve({ code, stderr, ms: performance.now() - started });
      });
    });
  }

  const reportIn = (): RunReport => {
    const runDir = readdirSync(join(dir, 'out')).find((name) => name !== 'latest' && name !== 'latest.txt') ?? '';
    for (const file of ['report.json', 'junit.xml', 'report.html']) expect(existsSync(join(dir, 'out', runDir, file)), file).to.equal(true);
    return JSON.parse(readFileSync(join(dir, 'out', runDir, 'report.json'), 'utf8')) as RunReport;
  };

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal}: writes the partial reports, the cases left "not run (interrupted)", and exits ${code}`, async () => {
      // At once: the first output means the handlers are in place, and a case takes a second here, so cases are left.
      const run = await interrupted(signal, 0);
      expect(run.code, run.stderr.slice(-800)).to.equal(code);
      expect(run.stderr).to.include(`${signal}: stopping the run`).and.to.match(/Reports: /);
      const report = reportIn();
      expect(report.cases).to.have.length(planned.length);
      expect(notRun(report.cases, 'interrupted').length).to.be.above(0);
      expect(report.run.stopped?.reason).to.equal('interrupted');
      expect(readFileSync(join(dir, 'out', readdirSync(join(dir, 'out')).find((n) => n !== 'latest' && n !== 'latest.txt') ?? '', 'report.json'), 'utf8')).to.not.include(SECRET);
    });
  }

  it('rdx run --deadline 2s: reports written, the rest "not run (deadline)", nothing sent after the stop', async () => {
    const run = await interrupted(undefined, 0, ['--deadline', '2s']);
    expect(run.stderr).to.match(/Stopped \(deadline\)/);
    const report = reportIn();
    // The exit code of the report's verdict (1 or 4), never 70 (a crash).
    expect(run.code, run.stderr.slice(-800)).to.equal(stoppedExitCode(report));
    expectStoppedAtDeadline(report, 2_000);
    expect(notRun(report.cases, 'deadline').length).to.be.above(0);
  });

  it('rdx run --deadline reads 1500ms, 90s, 15m, 1h and bare seconds, and refuses what is not a duration', () => {
    expect(['1500ms', '90s', '15m', '1h', '2', '0.5s'].map((v) => duration(v, '--deadline'))).to.deep.equal([1_500, 90_000, 900_000, 3_600_000, 2_000, 500]);
    for (const bad of ['soon', '0', '-5s', '5d', '']) expect(() => duration(bad, '--deadline'), bad).to.throw(/--deadline must be a duration such as 90s/);
  });
});
