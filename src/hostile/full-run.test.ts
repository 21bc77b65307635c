// Full runs of `rdx run` (every case, reports written) against the worst targets of the catalogue, in a child
// process whose heap is capped: if the harness kept what it reads, it would die of it. Each run must end in time
// with exit 1 and a complete report, and leak no secret into any output.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planCases } from '../engine/plan.js';
import { loadSuites } from '../engine/suite.js';
import { startHostile, type HostileKind } from './servers.js';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const SECRET = 'full-run-secret-5d81e2b7';
/** A full default run keeps well under 64 MiB; without the run's memory bounds these targets need GiBs. */
const HEAP_MB = 384;
const RUN_LIMIT_MS = 40_000;

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
    const killer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
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
];

describe(`full rdx run against the worst hostile targets (heap capped at ${HEAP_MB} MiB)`, function () {
  this.timeout(RUN_LIMIT_MS + 10_000);
  const total = planCases(loadSuites(), {}).cases.length;
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
      expect(run.signal, `killed after ${RUN_LIMIT_MS} ms or by the heap cap:\n${tail}`).to.equal(null);
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
