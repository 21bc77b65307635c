// When a started container is ready to be tested, and what to say when it never is.
//
// testcontainers' own strategies do not fit a host-network container: Wait.forListeningPorts and Wait.forHttp look
// the port up in the port bindings, which host networking does not have, and forListeningPorts also runs a shell
// inside the container, which distroless images lack. None of them notices a container that has exited, so that
// would wait out the whole timeout. This strategy probes from the host, where the harness will connect, and checks
// between probes that the container still runs.
import { connect } from 'node:net';
import { request } from 'node:http';
import type { Readable } from 'node:stream';
import type { BoundPorts, WaitStrategy } from 'testcontainers';
import type { WaitFor } from './options.js';

type DockerContainer = Parameters<WaitStrategy['waitUntilReady']>[0];

export interface Endpoint {
  host: string;
  port: number;
}

const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 1000;
const INSPECT_TIMEOUT_MS = 5000;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** The promise's value, or `fallback` once `ms` have passed. */
export async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * True when something accepts a TCP connection and keeps it open for `holdMs`. A proxy in front of a container
 * (docker-proxy on a bridge network) accepts at once even when nothing listens behind it, then hangs up: the
 * hold tells the two apart. holdMs 0 only asks whether the port is taken.
 */
export function portAccepts(endpoint: Endpoint, holdMs = 200, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: endpoint.host, port: endpoint.port });
    let settled = false;
    const done = (ok: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs + holdMs);
    socket.once('error', () => done(false));
    socket.once('end', () => done(false));
    socket.once('close', () => done(false));
    socket.once('connect', () => {
      if (holdMs === 0) done(true);
      else setTimeout(() => done(true), holdMs);
    });
  });
}

/** True when GET url answers 2xx within the time limit. */
export function httpAnswers(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: timeoutMs, headers: { connection: 'close' } }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300);
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolve(false));
    req.end();
  });
}

/** The last lines a container wrote (stdout and stderr together), and whether any line matched a pattern. */
export class LogTail {
  private readonly kept: string[] = [];
  private partial = '';
  private matchedLine = false;
  private endedFlag = false;
  private readonly endWaiters: (() => void)[] = [];

  constructor(
    readonly max = 20,
    private readonly pattern?: RegExp,
    // A single line can be megabytes (a JSON dump): keep enough of it to read.
    private readonly maxLineChars = 500,
  ) {}

  follow(stream: Readable): void {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.push(chunk));
    const end = (): void => this.end();
    stream.once('end', end);
    stream.once('close', end);
    // `on`, not `once`: a second error (the engine dropping the stream of a removed container) must not go unhandled.
    stream.on('error', end);
  }

  push(text: string): void {
    const parts = (this.partial + text).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    // A line without its newline yet can still be longer than we keep.
    if (this.partial.length > this.maxLineChars * 4) {
      this.line(this.partial);
      this.partial = '';
    }
    for (const line of parts) this.line(line);
  }

  end(): void {
    if (this.endedFlag) return;
    if (this.partial !== '') this.line(this.partial);
    this.partial = '';
    this.endedFlag = true;
    for (const wake of this.endWaiters.splice(0)) wake();
  }

  get matched(): boolean {
    return this.matchedLine;
  }

  get ended(): boolean {
    return this.endedFlag;
  }

  /** Resolves when the log stream has ended (the container stopped), or after `ms`. */
  settle(ms: number): Promise<void> {
    if (this.endedFlag) return Promise.resolve();
    return within(new Promise<void>((resolve) => this.endWaiters.push(resolve)), ms, undefined);
  }

  lines(): string[] {
    return this.partial === '' ? [...this.kept] : [...this.kept, this.partial].slice(-this.max);
  }

  private line(raw: string): void {
    if (this.pattern && !this.matchedLine) {
      this.pattern.lastIndex = 0;
      if (this.pattern.test(raw)) this.matchedLine = true;
    }
    this.kept.push(raw.length > this.maxLineChars ? `${raw.slice(0, this.maxLineChars)}… (${raw.length} characters)` : raw);
    if (this.kept.length > this.max) this.kept.shift();
  }
}

export interface ContainerState {
  running: boolean;
  status: string;
  exitCode?: number;
  oomKilled?: boolean;
  error?: string;
}

/**
 * The container's state; 'gone' when the engine no longer knows it, undefined when the engine did not say (slow or
 * erring: a busy engine copying an image with vfs storage can take seconds to answer).
 */
export async function containerState(container: DockerContainer): Promise<ContainerState | 'gone' | undefined> {
  const inspected = await within(container.inspect().catch((error: unknown) => ((error as { statusCode?: number }).statusCode === 404 ? 'gone' as const : undefined)),
    INSPECT_TIMEOUT_MS, undefined);
  if (inspected === undefined || inspected === 'gone') return inspected;
  const s = inspected.State;
  return {
    running: s.Running && !s.Restarting,
    status: s.Status,
    ...(s.Running ? {} : { exitCode: s.ExitCode }),
    ...(s.OOMKilled ? { oomKilled: true } : {}),
    ...(s.Error ? { error: s.Error } : {}),
  };
}

/** The container did not become ready: it timed out or stopped. Carries what the message needs. */
export class NotReadyError extends Error {
  constructor(
    readonly reason: 'timeout' | 'exited',
    readonly waitedMs: number,
    readonly state?: ContainerState,
  ) {
    super(reason === 'timeout' ? `not ready after ${waitedMs} ms` : `container stopped (${state?.status ?? 'gone'}) before it was ready`);
    this.name = 'NotReadyError';
  }
}

export interface ReadinessOptions {
  waitFor: WaitFor;
  timeoutMs: number;
  /** Where the harness will connect, from the port bindings (bridge) or fixed (host networking). */
  endpoint: (boundPorts: BoundPorts) => Endpoint;
  logs: LogTail;
  /** Keep a TCP connection this long before calling a port open (see portAccepts). */
  holdMs?: number;
}

/** A testcontainers WaitStrategy: probe until ready, fail at once when the container stops, give up at the timeout. */
export class Readiness implements WaitStrategy {
  private timeoutMs: number;
  private timeoutSet = false;

  constructor(private readonly options: ReadinessOptions) {
    this.timeoutMs = options.timeoutMs;
  }

  withStartupTimeout(startupTimeoutMs: number): this {
    this.timeoutMs = startupTimeoutMs;
    this.timeoutSet = true;
    return this;
  }

  isStartupTimeoutSet(): boolean {
    return this.timeoutSet;
  }

  getStartupTimeout(): number {
    return this.timeoutMs;
  }

  async waitUntilReady(container: DockerContainer, boundPorts: BoundPorts): Promise<void> {
    const started = Date.now();
    const deadline = started + this.timeoutMs;
    const endpoint = this.options.endpoint(boundPorts);
    // Each round takes at least the probe interval, so this many rounds outlast the deadline.
    const maxRounds = Math.ceil(this.timeoutMs / PROBE_INTERVAL_MS) + 2;
    for (let round = 0; round < maxRounds; round++) {
      const state = await containerState(container);
      if (state === 'gone' || (state !== undefined && !state.running)) {
        await this.options.logs.settle(1000);
        throw new NotReadyError('exited', Date.now() - started, state === 'gone' ? undefined : state);
      }
      if (await this.probe(endpoint)) return;
      const left = deadline - Date.now();
      if (left <= 0) break;
      await sleep(Math.min(PROBE_INTERVAL_MS, left));
    }
    throw new NotReadyError('timeout', Date.now() - started);
  }

  private async probe(endpoint: Endpoint): Promise<boolean> {
    const { waitFor } = this.options;
    switch (waitFor.kind) {
      case 'port': return portAccepts(endpoint, this.options.holdMs ?? 200);
      case 'log': return this.options.logs.matched;
      case 'http': return httpAnswers(`http://${urlHost(endpoint.host)}:${endpoint.port}${waitFor.path}`);
    }
  }
}

export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
