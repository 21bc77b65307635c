// `rdx run --image`: start the implementation under test from a container image, wait until it is ready, hand its
// URL to the run, and remove the container afterwards, whatever happens (failure, Ctrl-C, SIGTERM).
// Loaded with a dynamic import only when --image is given, because testcontainers is heavy.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { GenericContainer, getContainerRuntimeClient, getReaper, type ContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import type { Profile } from '../config/profile.js';
import { UnreachableError, UsageError } from '../errors.js';
import { Secrets } from '../http/redact.js';
import { escapeTerminal } from '../core/terminal.js';
import { describeWaitFor, type ContainerTarget } from './options.js';
import { LogTail, NotReadyError, Readiness, containerState, portAccepts, urlHost, within, type ContainerState } from './readiness.js';

export type { ContainerTarget, WaitFor } from './options.js';

/** Every container rdx starts carries this label, its value unique to the run: found again even without its id. */
export const SESSION_LABEL = 'org.rdx-conformance.session';
const LOG_LINES = 20;
const ENGINE_TIMEOUT_MS = 20_000;
const REMOVE_TIMEOUT_MS = 15_000;
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };
// Variables whose values are masked in the container's log lines, like the client secret.
const SECRET_NAME = /secret|passw|pwd|token|key|credential|auth|private|cert/i;

export interface RunningContainer {
  readonly id: string;
  /** The spec's {base_url}: where the harness reaches the implementation. */
  readonly baseUrl: string;
  readonly image: string;
}

export interface ContainerIo {
  /** Progress lines (which container, where, how long it took). */
  log: (line: string) => void;
}

const stderrIo: ContainerIo = { log: (line) => process.stderr.write(`${escapeTerminal(line)}\n`) };

/** testcontainers' GenericContainer, telling us how far start() got and the container's id as soon as there is one. */
class TrackedContainer extends GenericContainer {
  id: string | undefined;
  phase: 'image' | 'create' | 'start' | 'wait' = 'image';

  constructor(image: string, private readonly onCreated: (id: string) => void) {
    super(image);
  }

  protected override async beforeContainerCreated(): Promise<void> {
    this.phase = 'create';
  }

  protected override async containerCreated(containerId: string): Promise<void> {
    this.id = containerId;
    this.phase = 'start';
    this.onCreated(containerId);
  }

  protected override async containerStarting(): Promise<void> {
    this.phase = 'wait';
  }
}

/** Whether DOCKER_HOST names this machine: host networking only puts the container on our loopback then. */
export function engineIsLocal(dockerHost: string | undefined = process.env['DOCKER_HOST']): boolean {
  if (!dockerHost || /^(unix|npipe):/.test(dockerHost)) return true;
  try {
    return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(new URL(dockerHost).hostname);
  } catch {
    return false;
  }
}

/** DOCKER_HOST as it may be printed: user and password in an ssh:// or tcp:// URL are not. */
function shownDockerHost(): string {
  const value = process.env['DOCKER_HOST'];
  if (!value) return 'DOCKER_HOST is not set';
  return `DOCKER_HOST=${value.replace(/\/\/[^@/]*@/, '//***@')}`;
}

export function noEngineMessage(detail: string): string {
  return [
    `--image needs a Docker engine and none can be reached (${shownDockerHost()}; ${detail}).`,
    'Start one (dockerd, Docker Desktop, Podman\'s socket) or point DOCKER_HOST at it, e.g. DOCKER_HOST=unix:///var/run/docker.sock.',
    'Where the engine has no bridge network or runs rootless, also set TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 and',
    'TESTCONTAINERS_RYUK_DISABLED=true, and run with --network host.',
  ].join('\n');
}

/**
 * Whether something listens where DOCKER_HOST points. testcontainers tries other sockets when DOCKER_HOST does not
 * answer, so without this check rdx could quietly use another engine than the one the user named.
 */
export async function dockerHostAnswers(dockerHost: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(dockerHost);
  } catch {
    return false;
  }
  const target = url.protocol === 'unix:' ? { path: url.pathname }
    : /^(tcp|http|https):$/.test(url.protocol) ? { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 2376 : 2375)) }
      : undefined;
  // ssh:// and npipe:// are left to testcontainers.
  if (!target) return true;
  return new Promise((resolve) => {
    const socket = connect(target);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 3000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function connectEngine(): Promise<ContainerRuntimeClient> {
  const dockerHost = process.env['DOCKER_HOST'];
  if (dockerHost && !(await dockerHostAnswers(dockerHost))) throw new UnreachableError(noEngineMessage('nothing answers there'), 'RDX_ERR_NO_ENGINE');
  const failed = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
  const client = await within(getContainerRuntimeClient().catch(failed), ENGINE_TIMEOUT_MS, undefined);
  if (client === undefined) throw new UnreachableError(noEngineMessage(`no answer within ${ENGINE_TIMEOUT_MS} ms`), 'RDX_ERR_NO_ENGINE');
  if (client instanceof Error) {
    // testcontainers also gives up on an engine that answers when, running inside a container itself, it finds
    // no bridge network to reach the containers through: that needs other advice than "start an engine".
    if (process.env['TESTCONTAINERS_HOST_OVERRIDE'] === undefined && (await dockerHostAnswers(process.env['DOCKER_HOST'] ?? 'unix:///var/run/docker.sock'))) {
      throw new UnreachableError([
        `an engine answers (${shownDockerHost()}) but testcontainers cannot work out where its containers are reached (${firstLine(client.message)});`,
        'inside a container it looks for the engine\'s bridge network. Set TESTCONTAINERS_HOST_OVERRIDE to the address',
        'that reaches the engine\'s published ports (127.0.0.1 for an engine on this machine), or run with --network host.',
      ].join('\n'), 'RDX_ERR_NO_ENGINE');
    }
    throw new UnreachableError(noEngineMessage(firstLine(client.message)), 'RDX_ERR_NO_ENGINE');
  }
  return client;
}

function firstLine(text: string, max = 300): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

async function hasBridgeNetwork(client: ContainerRuntimeClient): Promise<boolean> {
  try {
    const networks = await client.container.dockerode.listNetworks();
    return networks.some((n) => n.Driver === 'bridge');
  } catch {
    // Not knowing is no reason to refuse: testcontainers will say what goes wrong.
    return true;
  }
}

/** The harness's credentials, and what the container must be told of them. */
export function containerCredentials(profile: Pick<Profile, 'clientId' | 'clientSecret'>, target: Pick<ContainerTarget, 'env'>):
  { clientId: string; clientSecret: string; env: Record<string, string> } {
  if (profile.clientId && profile.clientSecret) return { clientId: profile.clientId, clientSecret: profile.clientSecret, env: {} };
  // None given: throwaway credentials in the variables the bundled simulator reads, as the embedded simulator gets;
  // values the user set with --env win, and the harness uses them too.
  const clientId = profile.clientId ?? target.env['RDX_SIM_CLIENT_ID'] ?? 'rdx-container';
  const clientSecret = profile.clientSecret ?? target.env['RDX_SIM_CLIENT_SECRET'] ?? randomBytes(18).toString('base64url');
  return { clientId, clientSecret, env: { RDX_SIM_CLIENT_ID: clientId, RDX_SIM_CLIENT_SECRET: clientSecret } };
}

function logBlock(lines: string[], secrets: Secrets): string {
  if (lines.length === 0) return 'The container wrote no log lines.';
  return [`Last ${lines.length} log line(s) of the container (secrets masked):`, ...lines.map((l) => `  | ${secrets.scrub(l)}`)].join('\n');
}

/** "exited with code 3", "was removed by someone else", …; the engine's own error only when `said` lacks it. */
function exitText(state: ContainerState | undefined, said = ''): string {
  if (!state) return 'disappeared (removed by something else)';
  if (state.running) return 'was still running';
  const how = state.exitCode !== undefined ? `exited with code ${state.exitCode}` : `became ${state.status}`;
  const error = state.error && !said.includes(state.error.trim()) ? ` (${firstLine(state.error)})` : '';
  return `${how}${state.oomKilled ? ' (killed: out of memory)' : ''}${error}`;
}

/** One container's life: start() and remove(), the latter safe to call at any time, more than once, from a signal. */
export class ContainerSession {
  private readonly session = randomBytes(8).toString('hex');
  private client: ContainerRuntimeClient | undefined;
  private tracked: TrackedContainer | undefined;
  private started: StartedTestContainer | undefined;
  private removal: Promise<boolean> | undefined;

  constructor(
    readonly target: ContainerTarget,
    private readonly secrets: Secrets,
    private readonly io: ContainerIo = stderrIo,
  ) {}

  get id(): string | undefined {
    return this.tracked?.id;
  }

  /** A docker CLI filter matching this session's container, for a message when removal failed. */
  get labelFilter(): string {
    return `label=${SESSION_LABEL}=${this.session}`;
  }

  async start(extraEnv: Record<string, string> = {}): Promise<RunningContainer> {
    const t = this.target;
    const hostNetwork = t.network === 'host';
    if (hostNetwork && !engineIsLocal()) {
      throw new UsageError(`--network host puts the container on the engine's machine, but ${shownDockerHost()} is not this machine: use another --network`);
    }
    // With host networking the container is reached on 127.0.0.1 whatever testcontainers thinks the engine's
    // host is; without the override it looks for a bridge gateway that such engines lack, and gives up.
    if (hostNetwork && process.env['TESTCONTAINERS_HOST_OVERRIDE'] === undefined) process.env['TESTCONTAINERS_HOST_OVERRIDE'] = '127.0.0.1';
    const client = await connectEngine();
    this.client = client;
    if (hostNetwork && (await portAccepts({ host: '127.0.0.1', port: t.containerPort }, 0))) {
      // Otherwise the readiness probe would find whatever already listens there and the run would test it.
      throw new UnreachableError(`port ${t.containerPort} on 127.0.0.1 is already in use; with --network host the container listens on the host's ports directly: free it, or make the image listen on another port and give it as --container-port`, 'RDX_ERR_CONTAINER');
    }

    if (t.network === undefined && !(await hasBridgeNetwork(client))) {
      // Without one the engine publishes no ports: testcontainers would wait 10 s for a binding that never comes.
      throw new UnreachableError('the engine has no bridge network (dockerd --bridge=none?), so it cannot publish --container-port: run with --network host', 'RDX_ERR_CONTAINER');
    }

    const logs = new LogTail(LOG_LINES, t.waitFor.kind === 'log' ? t.waitFor.pattern : undefined);
    const waitText = describeWaitFor(t.waitFor, t.containerPort);
    const readiness = new Readiness({
      waitFor: t.waitFor,
      timeoutMs: t.startupTimeoutMs,
      logs,
      endpoint: (bound) => (hostNetwork
        ? { host: '127.0.0.1', port: t.containerPort }
        : { host: client.info.containerRuntime.host, port: bound.getBinding(t.containerPort) }),
    });
    const container = new TrackedContainer(t.image, (id) => {
      this.io.log(`Container: ${id.slice(0, 12)} created from ${t.image}; waiting up to ${t.startupTimeoutMs} ms for ${waitText}`);
    })
      .withLabels({ [SESSION_LABEL]: this.session })
      .withEnvironment({ ...extraEnv, ...t.env })
      .withWaitStrategy(readiness)
      .withStartupTimeout(t.startupTimeoutMs)
      .withLogConsumer((stream) => logs.follow(stream));
    if (t.network !== undefined) container.withNetworkMode(t.network);
    if (!hostNetwork) container.withExposedPorts(t.containerPort);
    if (t.command) container.withCommand(t.command);
    this.tracked = container;

    const began = Date.now();
    try {
      // Started here rather than inside start() so that its failure is told apart from the container's own.
      await getReaper(client);
    } catch (error) {
      throw new UnreachableError([
        `testcontainers could not start its clean-up container (ryuk): ${this.secrets.scrub(firstLine(error instanceof Error ? error.message : String(error)))}`,
        'Where that image cannot be pulled, set TESTCONTAINERS_RYUK_DISABLED=true: rdx removes its container itself.',
      ].join('\n'), 'RDX_ERR_CONTAINER');
    }
    try {
      this.started = await container.start();
    } catch (error) {
      const message = await this.failure(error, container, logs, waitText);
      await this.remove();
      throw new UnreachableError(message, 'RDX_ERR_CONTAINER');
    }
    const host = hostNetwork ? '127.0.0.1' : urlHost(this.started.getHost());
    const port = hostNetwork ? t.containerPort : this.started.getMappedPort(t.containerPort);
    const running = { id: this.started.getId(), baseUrl: `http://${host}:${port}${t.basePath}`, image: t.image };
    this.io.log(`Container: ${running.id.slice(0, 12)} ready at ${running.baseUrl} after ${((Date.now() - began) / 1000).toFixed(1)} s`);
    return running;
  }

  /** Why start() failed, in words, with the container's last log lines (secrets masked). */
  private async failure(error: unknown, container: TrackedContainer, logs: LogTail, waitText: string): Promise<string> {
    const t = this.target;
    const detail = this.secrets.scrub(firstLine(error instanceof Error ? error.message : String(error)));
    if (error instanceof NotReadyError) {
      const head = error.reason === 'timeout'
        ? `the container from ${t.image} was not ready after ${t.startupTimeoutMs} ms (--startup-timeout) waiting for ${waitText}; it was still running and has been removed.`
        : `the container from ${t.image} ${exitText(error.state)} ${(error.waitedMs / 1000).toFixed(1)} s into the wait, before it was ready; rdx was waiting for ${waitText}. It has been removed.`;
      return `${head}\n${logBlock(logs.lines(), this.secrets)}`;
    }
    switch (container.phase) {
      case 'image':
        return `image ${t.image} is not available to the engine and could not be pulled: ${detail}\nBuild or load it first (docker build, docker load, docker import), or check the name and the registry login.`;
      case 'create':
        if (/network .*not found/i.test(detail)) {
          return `the engine could not create the container: ${detail}\nAn engine without a bridge network (dockerd --bridge=none) needs --network host.`;
        }
        return `the engine could not create the container from ${t.image}: ${detail}`;
      default: {
        // Started (or tried to) but failed before our readiness check ran: the engine's own limits.
        const id = container.id;
        const state = id && this.client ? await this.stateOf(id) : undefined;
        const lines = id && this.client ? await this.tailOf(id, logs) : logs.lines();
        return `the container from ${t.image} could not be started: ${detail}${state ? `; it ${exitText(state, detail)}` : ''}.\n${logBlock(lines, this.secrets)}`;
      }
    }
  }

  private async stateOf(id: string): Promise<ContainerState | undefined> {
    const state = this.client ? await containerState(this.client.container.getById(id)) : undefined;
    return state === 'gone' ? undefined : state;
  }

  private async tailOf(id: string, fallback: LogTail): Promise<string[]> {
    if (!this.client) return fallback.lines();
    const tail = new LogTail(LOG_LINES);
    try {
      const stream = await this.client.container.logs(this.client.container.getById(id), { tail: LOG_LINES });
      tail.follow(stream);
      // The stream follows a running container for ever; an exited one ends it at once.
      await tail.settle(1000);
      stream.destroy();
    } catch {
      return fallback.lines();
    }
    const lines = tail.lines();
    return lines.length > 0 ? lines : fallback.lines();
  }

  /** Stops and removes the container, if there is one. True when none of ours is left. Never throws. */
  remove(): Promise<boolean> {
    this.removal ??= within(this.removeNow(), REMOVE_TIMEOUT_MS, false);
    return this.removal;
  }

  private async removeNow(): Promise<boolean> {
    const client = this.client;
    if (!client) return true;
    if (this.started) {
      try {
        await this.started.stop({ timeout: 0, remove: true, removeVolumes: true });
      } catch {
        // Fall through to the forced removal below.
      }
    }
    const dockerode = client.container.dockerode;
    const ids = new Set<string>(this.tracked?.id ? [this.tracked.id] : []);
    try {
      // A signal can arrive between the engine creating the container and testcontainers telling us its id.
      const labelled = await dockerode.listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${this.session}`] } });
      for (const c of labelled) ids.add(c.Id);
    } catch {
      // The engine may be gone; the id alone is tried below.
    }
    let clean = true;
    for (const id of ids) {
      try {
        await dockerode.getContainer(id).remove({ force: true, v: true });
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        // 404: already gone (testcontainers removes a container that failed its readiness wait); 409: removal already under way.
        if (status !== 404 && status !== 409) clean = false;
      }
    }
    return clean;
  }
}

function containerSecrets(clientSecret: string, env: Record<string, string>): Secrets {
  const secrets = new Secrets();
  secrets.add(clientSecret);
  for (const [name, value] of Object.entries(env)) if (SECRET_NAME.test(name)) secrets.add(value);
  return secrets;
}

/**
 * Starts the container, runs `run` against it with the profile pointed at it, and removes the container after,
 * also on SIGINT/SIGTERM (then the process exits 130/143 once the container is gone).
 */
export async function withContainer<T>(
  target: ContainerTarget, profile: Profile, run: (profile: Profile) => Promise<T>, io: ContainerIo = stderrIo,
): Promise<T> {
  const credentials = containerCredentials(profile, target);
  const session = new ContainerSession(target, containerSecrets(credentials.clientSecret, { ...credentials.env, ...target.env }), io);
  if (profile.baseUrl) io.log(`Container: the base URL from the environment or config file is replaced by the container's`);

  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    const code = SIGNAL_EXIT[signal] ?? 1;
    if (interrupted) process.exit(code);
    interrupted = signal;
    io.log(`\n${signal}: removing container ${session.id?.slice(0, 12) ?? '(not created yet)'} before exiting (again to exit at once)`);
    void session.remove().then((clean) => {
      if (!clean) io.log(`Container: ${session.id ?? ''} could not be removed: docker rm -f ${session.id ?? `$(docker ps -aq --filter ${session.labelFilter})`}`);
      process.exit(code);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const running = await session.start(credentials.env);
    return await run({ ...profile, baseUrl: running.baseUrl, clientId: credentials.clientId, clientSecret: credentials.clientSecret });
  } catch (error) {
    // The signal handler owns the exit now; its message is the one to see, not the failure it caused.
    if (interrupted) await new Promise<never>(() => undefined);
    throw error;
  } finally {
    // Stopped by the signal, the run ends too, maybe before the container is gone: the signal handler exits once it
    // is removed, so returning here (and exiting) would leave it behind.
    if (interrupted) await new Promise<never>(() => undefined);
    if (!interrupted) {
      const id = session.id;
      const clean = await session.remove();
      if (id) io.log(clean ? `Container: ${id.slice(0, 12)} removed` : `Container: ${id} could not be removed: docker rm -f ${id}`);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}
