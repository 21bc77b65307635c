// The deadline and the signals are a hard stop whatever the target does (issue 29 §1). Against a target whose tokens
// live 1 ms (a new one, a new secret to mask, for every request) and whose list pages of 4,000 short strings never
// end, the harness used to mask every string of every page with every token, synchronously, at the end of the
// walk: minutes with the event loop blocked, so neither --deadline nor SIGINT was heard and no report was written.
// Here `rdx run` must end soon after its deadline or a SIGINT, with the reports.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '../../src/engine/run.js';
import { startHostile, type HostileServer } from './servers.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const SECRET = 'halt-secret-0b6e93';
/** A case that walks the endless pages (each fetched with a new token). */
const GREP = '^activities\\.page-shape ';
/** Within the walk, each page with its token: on a slow machine within the first pages, on a fast one (where the
 * walk's 430 pages took less than 2 s) within the paced part of it (PACED). */
const DEADLINE_S = 2;
/**
 * For the deadline: after this many requests (some 150 pages and their tokens) the target answers each one 30 ms late,
 * so the rest of the walk takes over 15 s and the deadline falls within it on any machine. What is already read
 * (every page with its own token, the masking load) is there before the deadline even so.
 */
const PACED = { requests: 300, ms: 30 };
/** SIGINT once the target has served this many requests (a page and a token each), well within the walk. */
const SIGNAL_AFTER_REQUESTS = 400;
/** How long after the deadline or the signal the process may take to write its reports and exit: not a speed goal, a hang guard (the old code took minutes). */
const AFTER_STOP_MS = 15_000;

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  /** From the stop (the deadline, or the signal sent) to the exit. */
  afterStopMs: number;
}

function rdx(dir: string, url: string, extra: string[], signalWhen?: () => boolean): Promise<Ended> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', '--base-url', url, '--client-id', 'halt', '--grep', GREP, '--timeout', '2000',
      '-R', 'dot', '--report-dir', 'out', ...extra], { cwd: dir, env: { ...process.env, RDX_CLIENT_SECRET: SECRET, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let stopAt = DEADLINE_S * 1_000;
    let killer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_S * 1_000 + 4 * AFTER_STOP_MS);
    const poke = signalWhen === undefined ? undefined : setInterval(() => {
      if (!signalWhen()) return;
      clearInterval(poke);
      stopAt = performance.now() - started;
      child.kill('SIGINT');
      clearTimeout(killer);
      killer = setTimeout(() => child.kill('SIGKILL'), 4 * AFTER_STOP_MS);
    }, 20);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      clearInterval(poke);
      resolve({ code, signal, output, afterStopMs: performance.now() - started - stopAt });
    });
  });
}

function reportIn(dir: string): RunReport {
  const runDir = readdirSync(join(dir, 'out')).find((name) => name !== 'latest' && name !== 'latest.txt') ?? '';
  for (const file of ['report.json', 'junit.xml', 'report.html']) expect(existsSync(join(dir, 'out', runDir, file)), file).to.equal(true);
  return JSON.parse(readFileSync(join(dir, 'out', runDir, 'report.json'), 'utf8')) as RunReport;
}

describe('a hard stop against a target that makes the run mask a new token per request (token-lives-1ms)', function () {
  this.timeout(DEADLINE_S * 1_000 + 6 * AFTER_STOP_MS);
  let server: HostileServer | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-halt-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it(`rdx run --deadline ${DEADLINE_S}s ends with the reports soon after the deadline`, async () => {
    const target = await startHostile('token-lives-1ms', { slowAfter: PACED });
    server = target;
    const run = await rdx(dir, target.url, ['--deadline', `${DEADLINE_S}s`]);
    process.stdout.write(`      exit ${String(run.code)} ${(run.afterStopMs / 1000).toFixed(1)} s after the deadline; ${target.stats.requests} requests\n`);
    expect(run.signal, run.output.slice(-800)).to.equal(null);
    expect(run.afterStopMs, run.output.slice(-800)).to.be.below(AFTER_STOP_MS);
    expect(run.output, run.output.slice(-800)).to.match(/Stopped \(deadline\)/).and.to.match(/Reports: /);
    const report = reportIn(dir);
    expect(report.run.stopped?.reason).to.equal('deadline');
    expect(JSON.stringify(report)).to.not.include(SECRET).and.not.include(target.token);
  });

  it('SIGINT ends the run with the reports soon after, exit 130', async () => {
    const target = await startHostile('token-lives-1ms');
    server = target;
    const run = await rdx(dir, target.url, [], () => target.stats.requests >= SIGNAL_AFTER_REQUESTS);
    process.stdout.write(`      exit ${String(run.code)} ${(run.afterStopMs / 1000).toFixed(1)} s after SIGINT; ${target.stats.requests} requests\n`);
    expect(run.code, run.output.slice(-800)).to.equal(130);
    expect(run.afterStopMs, run.output.slice(-800)).to.be.below(AFTER_STOP_MS);
    expect(run.output).to.match(/SIGINT: stopping the run/).and.to.match(/Reports: /);
    const report = reportIn(dir);
    expect(report.run.stopped?.reason).to.equal('interrupted');
    expect(JSON.stringify(report)).to.not.include(SECRET).and.not.include(target.token);
  });
});
