// Full runs of `rdx run` (every case, reports written) against the worst targets of the catalogue, in a child
// process whose heap is capped: if the harness kept what it reads, it would die of it. Each run must end with exit 1
// and a complete report, leak no secret into any output, and stay within the requests its plan allows: every
// request has a timeout (--timeout), so a run whose request count is bounded ends, however loaded the machine is.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planCases } from '../../src/engine/plan.js';
import { LIST_ENCODINGS } from '../../src/engine/runner.js';
import { loadSuites } from '../../src/engine/suite.js';
import { startHostile, type HostileKind } from './servers.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const SECRET = 'full-run-secret-5d81e2b7';
/** A full default run keeps well under 64 MiB; without the run's memory bounds these targets need GiBs. */
const HEAP_MB = 384;
/** Only against a hang (a run that never ends would block the suite): not a speed goal, which `npm run bench` has. */
const HANG_GUARD_MS = 10 * 60_000;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function rdx(args: string[], cwd: string): Promise<Finished> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CLI, ...args], {
      cwd, env: { ...process.env, RDX_CLIENT_SECRET: SECRET, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
}

const CASES: { kind: HostileKind; maxResponseBytes: number; why: string }[] = [
  { kind: 'deep-json', maxResponseBytes: 20 * 1024 * 1024, why: '200 KiB of 100,000-level nesting on every answer' },
  { kind: 'endless-body', maxResponseBytes: 2 * 1024 * 1024, why: 'every answer endless, cut at a 2 MiB cap' },
  { kind: 'endless-pages', maxResponseBytes: 20 * 1024 * 1024, why: 'writes echoed, list pages of 1 MiB that never end' },
  { kind: 'object-heavy', maxResponseBytes: 20 * 1024 * 1024, why: 'writes echoed, list pages of 20,000 empty objects (60 KB, 1.3 MB parsed) that never end' },
  { kind: 'object-pages-2mib', maxResponseBytes: 20 * 1024 * 1024, why: 'writes echoed, 2 MiB list pages of empty objects (about 60 MB parsed each) that never end' },
  { kind: 'gzip-object-bomb', maxResponseBytes: 20 * 1024 * 1024, why: 'every answer 20 KB of gzip decoding to 20 MiB of empty objects' },
];

/**
 * The most requests a run of these cases may send: each step once, or once per list encoding when it tries them,
 * times the pages a walk may follow, each possibly resent once with a fresh token after a 401 (and that token
 * fetched); plus the run's own token and expired-token requests.
 */
function requestBound(cases: ReturnType<typeof planCases>['cases']): number {
  const perStep = cases.flatMap((c) => c.steps).map((step) =>
    (step.tryListEncodings ? LIST_ENCODINGS.length : 1) * (step.paginate ? step.paginate.maxPages ?? 1000 : 1) * 3);
  return perStep.reduce((a, b) => a + b, 0) + 2 * cases.length + 2;
}

describe(`full rdx run against the worst hostile targets (heap capped at ${HEAP_MB} MiB)`, function () {
  this.timeout(HANG_GUARD_MS + 10_000);
  const planned = planCases(loadSuites(), {}).cases;
  const total = planned.length;
  const bound = requestBound(planned);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-hostile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const { kind, maxResponseBytes, why } of CASES) {
    it(`${kind} (${why}): exit 1 with a complete report, in time, no secret anywhere`, async () => {
      const server = await startHostile(kind);
      let run: Finished;
      try {
        writeFileSync(join(dir, 'rdx.config.yaml'), `http:\n  maxResponseBytes: ${maxResponseBytes}\n`);
        run = await rdx(['run', '--base-url', server.url, '--client-id', 'hostile-client', '--timeout', '1000', '-R', 'dot',
          '-c', 'rdx.config.yaml', '--report-dir', 'out'], dir);
      } finally {
        await server.close();
      }
      const tail = `${run.stdout}${run.stderr}`.split('\n').slice(-6).join('\n');
      process.stdout.write(`      ${kind}: exit ${String(run.code)} in ${(run.ms / 1000).toFixed(1)} s; ${server.stats.requests} requests, `
        + `${Math.round(server.stats.bytesWritten / 2 ** 20)} MiB served; ${/(NOT )?CONFORMANT: .*/.exec(run.stdout)?.[0] ?? '(no verdict line)'}\n`);
      expect(run.signal, `killed by the hang guard (${HANG_GUARD_MS} ms) or the heap cap:\n${tail}`).to.equal(null);
      expect(server.stats.requests, `requests sent, at most ${bound} for ${total} cases`).to.be.at.most(bound);
      expect(run.code, tail).to.equal(1);
      expect(run.stdout).to.match(/NOT CONFORMANT/);
      expect(run.stderr).to.not.match(/internal error|heap out of memory|Maximum call stack/);
      const runDir = readdirSync(join(dir, 'out')).find((name) => name !== 'latest' && name !== 'latest.txt') ?? '';
      const report = JSON.parse(readFileSync(join(dir, 'out', runDir, 'report.json'), 'utf8')) as { summary: { total: number; conformant: boolean } };
      expect(report.summary.total).to.equal(total);
      expect(report.summary.conformant).to.equal(false);
      for (const file of ['report.json', 'junit.xml', 'report.html']) {
        const text = readFileSync(join(dir, 'out', runDir, file), 'utf8');
        expect(text, file).to.not.include(SECRET).and.not.include(server.token);
      }
      expect(run.stdout + run.stderr).to.not.include(SECRET).and.not.include(server.token);
    });
  }
});
