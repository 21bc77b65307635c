// The exit code is the verdict a CI gate reads: a process ends only through its own exit path (src/cli/exit.ts).
// Against a rate-limited target whose 429s come during the cases and during the end-of-run sweep, `rdx run` exits
// with its report's verdict and writes every report, at --concurrency 1 and 8. Before issue 36 such a run exited 0
// with no report: the wait after a 429 was an unref'd timer, and Node ended the process in the middle of it.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { exitCodeOf } from '../../src/core/verdict.js';
import type { RunReport } from '../../src/core/report.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { CLI, rdxProcess } from '../support/cli.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback.js';

const SECRET = 'exit-path-secret-3f9a1c';

/**
 * A gateway in front of the simulator, as a vendor's might be. The first DELETE of each jobboard job offer fails
 * (503, no Retry-After), so the case's own delete does not remove it and the sweep must; the sweep's DELETE is then
 * throttled once (429, Retry-After: 1) before it passes. So the sweep meets a 429 on every run, whatever the timing.
 */
async function gateway(target: string): Promise<LoopbackServer & { sweepThrottled: () => number }> {
  const deletes = new Map<string, number>();
  let sweepThrottled = 0;
  const answer = (res: ServerResponse, status: number, headers: Record<string, string>, message: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ message, errors: [{ message, data: null }] }));
  };
  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    const id = req.method === 'DELETE' && /^Bearer /.test(req.headers.authorization ?? '') ? /^\/jobboard\/job-offers\/([^/?]+)$/.exec(req.url ?? '')?.[1] : undefined;
    if (id === undefined) return forward(req, res);
    const seen = (deletes.get(id) ?? 0) + 1;
    deletes.set(id, seen);
    req.resume();
    if (seen === 1) return answer(res, 503, {}, 'The backend is briefly unavailable.');
    if (seen === 2) {
      sweepThrottled += 1;
      return answer(res, 429, { 'retry-after': '1' }, 'Too many requests.');
    }
    forward(req, res);
  });
  return { ...(await listenOnLoopback(server)), sweepThrottled: () => sweepThrottled };
}

function reportOf(dir: string): RunReport {
  return JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as RunReport;
}

describe('the exit path: a run ends with its verdict, never by accident', function () {
  this.timeout(180_000);
  let sim: Simulator;
  let front: Awaited<ReturnType<typeof gateway>>;
  let work: string;

  before(async () => {
    // 10 requests a second, burst 4: the cases meet 429s at once, at any concurrency.
    sim = await startSimulator({ host: '127.0.0.1', port: 0, records: 20, clientId: 'exit-path', clientSecret: SECRET, rateLimit: '10/4' });
    front = await gateway(sim.baseUrl);
    work = mkdtempSync(join(tmpdir(), 'rdx-exit-path-'));
  });
  after(async () => {
    await front?.close();
    await sim?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Runs a script that imports the named exports of the built modules (paths under src/) and runs `code`. */
  const probe = (name: string, imports: Record<string, string>, code: string): ReturnType<typeof rdxProcess> => {
    const script = join(work, `${name}.mjs`);
    const dist = (path: string): string => pathToFileURL(fileURLToPath(new URL(`../../src/${path}`, import.meta.url))).href;
    writeFileSync(script, [...Object.entries(imports).map(([what, path]) => `import { ${what} } from ${JSON.stringify(dist(path))};`), code].join('\n'));
    return rdxProcess([], { script, hangGuardMs: 60_000 });
  };

  for (const concurrency of [1, 8]) {
    it(`exits with the report's verdict and writes every report when the cases and the sweep meet 429s (--concurrency ${concurrency})`, async () => {
      const dir = join(work, `c${concurrency}`);
      const before = front.sweepThrottled();
      const ended = await rdxProcess(['run', '--base-url', front.url, '--client-id', 'exit-path', '--endpoint', '20',
        // The explore case of jobboard job offers calls endpoint 20 too: a small budget, or its search would spend
        // most of the test waiting out the 10 requests a second.
        '--concurrency', String(concurrency), '--report-dir', dir, '--no-progress', '--explore-budget', '40'], { env: { RDX_CLIENT_SECRET: SECRET } });
      expect(front.sweepThrottled() - before, 'the sweep met a 429').to.be.greaterThan(0);
      expect(existsSync(join(dir, 'latest', 'report.json')), `report.json written; stderr: ${ended.stderr}`).to.equal(true);
      const report = reportOf(dir);
      expect(Object.keys(report.transport?.throttled ?? {}), 'the cases met 429s').to.not.be.empty;
      for (const file of ['junit.xml', 'report.html']) expect(existsSync(join(dir, 'latest', file)), file).to.equal(true);
      // The gateway's 503s fail DELETE.REMOVES: a real MUST failure, which exit 0 would have hidden.
      expect(report.summary.verdict).to.equal('NOT_CONFORMANT');
      // No --deadline given: the run is still bounded, by the default hour.
      expect(report.run.deadlineMs).to.equal(3_600_000);
      expect(ended.code).to.equal(exitCodeOf(report.summary));
      expect(ended.stdout).to.include('DELETE.REMOVES');
    });
  }

  it('a process whose event loop empties while its command awaits exits 70 and names what was pending', async () => {
    // A command awaiting a wait whose timer does not keep the process alive: the exact shape of the bug, planted.
    const ended = await probe('planted-wait', { runAsProgram: 'cli/exit.js', awaiting: 'core/pending.js' },
      `runAsProgram(() => awaiting('a planted wait on an unref\\'d timer', new Promise((r) => setTimeout(r, 60_000).unref())).then(() => 0));`);
    expect(ended.code).to.equal(70);
    expect(ended.stderr).to.include('ran out of work while still awaiting a planted wait on an unref\'d timer');
  });

  it('a reader that closes the pipe early (rdx list | head -1) is not an internal error: exit 0', async () => {
    const child = spawn(process.execPath, [CLI, 'list'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
  });

  it('a malformed --proxy is a usage error (exit 2) that names the flag, not an internal error', async () => {
    const ended = await rdxProcess(['run', '--base-url', 'http://127.0.0.1:9', '--client-id', 'x', '--proxy', 'http://[bad', '--no-reports'],
      { env: { RDX_CLIENT_SECRET: SECRET } });
    expect(ended.stderr).to.include('--proxy').and.include('http://[bad');
    expect(ended.code).to.equal(2);
  });

  it('a run that throws before its end leaves nothing that holds its caller\'s process (the deadline is a watchdog)', async () => {
    // An API caller whose run is refused (no case matches): the process must end by itself, not an hour later.
    const ended = await probe('refused-run', { runConformance: 'index.js' }, [
      `const profile = { baseUrl: ${JSON.stringify(sim.baseUrl)}, clientId: 'exit-path', clientSecret: ${JSON.stringify(SECRET)} };`,
      'await runConformance({ profile, reporter: "none", filters: { grep: "^no such case$" } }).then(() => process.exit(9), (e) => console.log(`refused: ${e.message}`));',
    ].join('\n'));
    expect(ended.signal, 'held until the hang guard').to.equal(null);
    expect(ended.stdout).to.include('refused: no case matches the filters');
    expect(ended.code).to.equal(0);
  });

  it('an unhandled rejection off the command\'s path exits 70, never 0', async () => {
    const ended = await probe('rejects', { runAsProgram: 'cli/exit.js' },
      'runAsProgram(async () => { void Promise.reject(new Error("stray rejection")); await new Promise((r) => setTimeout(r, 200)); return 0; });');
    expect(ended.code).to.equal(70);
    expect(ended.stderr).to.include('stray rejection');
  });
});
