// What the benchmark sections share: subjects in child processes with time limits, and autocannon runs.
import autocannon from 'autocannon';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.js', import.meta.url));
/** The built `rdx` command line, which starts the sections' simulators. */
export const RDX_CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
/** The client secret of every simulator a section starts (client id "bench", simulatorProcess). */
export const BENCH_SECRET = 'bench-secret-0123456789';

export interface Table {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

export interface BenchSection {
  name: string;
  run(): Promise<Table[]>;
}

export interface Subject {
  /** The child's first message ({port} for a server). */
  first: Record<string, unknown>;
  /** The child's CPU time (µs) while `during` runs. */
  cpuDuring<T>(during: () => Promise<T>): Promise<{ result: T; cpuMicros: number }>;
  stop(): Promise<void>;
}

function nextMessage(child: ChildProcess, timeoutMs: number, what: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench child ${what} gave no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`bench child ${what} exited with ${String(code)} before answering`));
    };
    child.once('exit', onExit);
    child.once('message', (message) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(message as Record<string, unknown>);
    });
  });
}

/** Starts bench/child.js in a mode and waits for its first message (at most timeoutMs). */
export async function startChild(args: string[], timeoutMs: number, execArgv: string[] = []): Promise<Subject> {
  const child = fork(CHILD, args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const what = args.join(' ');
  const first = await nextMessage(child, timeoutMs, what);
  return {
    first,
    async cpuDuring(during) {
      child.send('measure');
      const result = await during();
      const reply = nextMessage(child, 10_000, what);
      child.send('measured');
      return { result, cpuMicros: Number((await reply)['cpuMicros']) };
    },
    stop: () => new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        done();
        return;
      }
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(kill);
        done();
      });
      if (child.connected) child.send('stop');
      else child.kill('SIGTERM');
    }),
  };
}

export interface Load {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Server CPU time per request (user + system), in µs. */
  cpuPerRequest: number;
  errors: number;
  non2xx: number;
}

export const CONNECTIONS = 50;

/** One measured run against a subject: CONNECTIONS connections for `seconds`, with the subject's CPU time. */
export async function load(subject: Subject, target: Load, seconds: number): Promise<LoadResult> {
  const { result, cpuMicros } = await subject.cpuDuring(() => autocannon({ ...target, connections: CONNECTIONS, timeout: 10, duration: seconds }));
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: result.requests.total > 0 ? cpuMicros / result.requests.total : NaN,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** A short unmeasured run, so that the JIT has compiled the paths before they are measured. */
export async function warmUp(target: Load): Promise<void> {
  await autocannon({ ...target, connections: CONNECTIONS, timeout: 10, duration: 1 });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The run with the median req/s of several. */
export function medianRun(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.reqPerSec - b.reqPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)] as LoadResult;
}

/** `rdx simulate` (the CLI at `cli`) in its own process, so the harness does not share an event loop with it. */
export async function simulatorProcess(cli: string, secret: string, args: string[] = []): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, [cli, 'simulate', '--port', '0', '--client-id', 'bench', '--client-secret', secret, '--no-admin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the simulator did not start within 20 s')), 20_000);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${String(code)}`)));
  });
  return { baseUrl, stop: () => child.kill('SIGTERM') };
}
