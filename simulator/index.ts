// The reference simulator of the Recruitment Data Exchange Service: startSimulator() serves the whole API on
// node:http from an in-memory store seeded with generated data. See simulator/README.md.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { UsageError } from '../src/errors.js';
import { ADMIN_PREFIX, handleAdmin, type AdminTarget } from './admin.js';
import { TokenStore } from './auth.js';
import { Chaos } from './chaos.js';
import { RateLimits } from './rate-limit.js';
import { Dashboard } from './dashboard/index.js';
import { errorBody } from './envelope.js';
import { Journal } from './journal.js';
import { MAX_RECORDS, integer, resolveOptions, type ResolvedOptions, type SimulatorOptions } from './options.js';
import type { Persona } from './personas/types.js';
import { rules } from './rules.js';
import type { SeedCounts } from './seed.js';
import { seedStoreCached } from './seed-cache.js';
import { Pipeline, type PipelineState } from './server.js';
import { atsJobOfferFixtureIds } from './personas/catalogue.js';
import { applySnapshot, parseSnapshot, snapshotSource, snapshotText } from './snapshot.js';
import { StateFile, readState } from './state.js';
import { Store } from './store.js';

export type { SimulatorOptions, ResolvedOptions } from './options.js';
export type { Persona } from './personas/types.js';
export type { SeedCounts } from './seed.js';
export type { Store } from './store.js';
export type { Journal, JournalEntry } from './journal.js';

export interface Simulator {
  /** The spec's {base_url}: origin plus the base path (a persona with a base path, switched on, changes it). */
  readonly baseUrl: string;
  /** Where the admin surface answers; undefined when it is off. */
  readonly adminUrl: string | undefined;
  /** The dashboard page (under the admin surface); undefined when the admin surface is off. */
  readonly dashboardUrl: string | undefined;
  /** The token the admin surface requires (X-Rdx-Admin-Token); undefined on loopback. */
  readonly adminToken: string | undefined;
  /** The options in force: replaced as a whole by setPersonas(). */
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly journal: Journal;
  /** Latency and chaos: chaos.configure() changes them at runtime. */
  readonly chaos: Chaos;
  /** Switches to these personas (none: the plain simulator); requests already under way finish under the old ones. */
  setPersonas(personas: readonly Persona[]): void;
  /** Records seeded, per resource. */
  readonly seeded: SeedCounts;
  /** Stops listening and ends every connection, keep-alive ones included. */
  close(): Promise<void>;
  /** Back to the seeded data (the current seed and volume) with an empty journal and the chaos sequence from its start; tokens stay valid. */
  reset(): Promise<void>;
  /** New seed data; also becomes what reset() returns to. */
  reseed(seed: number, records: number): Promise<SeedCounts>;
  /** A bearer token of the configured client that has already expired (for the harness's fixtures.expiredToken). */
  expiredToken(): string;
  /** The {id} of a job offer the simulator seeded, as the active personas address it (the harness's fixtures.atsJobOfferIds). */
  atsJobOfferFixtureIds(): string[];
  /** The store as a snapshot document (snapshot.ts). */
  exportSnapshot(): string;
  /** Replaces the store with a snapshot's records, all or nothing; throws SnapshotError saying what is wrong. */
  importSnapshot(text: string): SeedCounts;
}

function countsOf(store: Store): SeedCounts {
  const { jobOffers = 0, applicationSteps = 0, jobboardActivities = 0, jobboardJobOffers = 0, users = 0 } = store.counts();
  return { jobOffers, applicationSteps, jobboardActivities, jobboardJobOffers, users };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** How long a closed-off client gets to read its last answer before its socket is destroyed. */
const LINGER_MS = 1_000;

/**
 * The JSON error body written straight to the socket, then closed: for requests that never reach the pipeline.
 * The socket is destroyed once the answer is flushed (or after LINGER_MS): end() alone only half-closes it, and a
 * client that never closes its side (a slow-loris one) would hold the descriptor for as long as it likes.
 */
function answerOnSocket(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify(errorBody(message));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * Keeps at most `max` connections open. A newcomer past the cap takes the place of the oldest idle connection (no
 * request under way: silent, half-sent headers, or kept alive), so a client holding thousands of silent sockets
 * cannot lock others out; only when every connection is busy is the newcomer answered 503 and closed.
 */
function capConnections(server: Server, max: number): (req: IncomingMessage, res: ServerResponse) => void {
  /** Open connections, oldest first, with the number of requests each has under way. */
  const open = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      let idle: Socket | undefined;
      for (const [s, busy] of open) {
        if (busy === 0) {
          idle = s;
          break;
        }
      }
      if (!idle) {
        answerOnSocket(socket, 503, `The simulator is serving ${max} connections (--max-connections), all busy; retry in a moment.`);
        return;
      }
      open.delete(idle);
      idle.destroy();
    }
    open.set(socket, 0);
    socket.once('close', () => open.delete(socket));
  });
  // One function for every response, not a closure each: this runs on every request.
  function responseClosed(this: ServerResponse): void {
    const socket = this.req.socket;
    if (open.has(socket)) open.set(socket, Math.max(0, (open.get(socket) ?? 1) - 1));
  }
  // Called by the request listener rather than added as a second one: an event with two listeners costs more.
  return (req, res) => {
    const socket = req.socket;
    if (!open.has(socket)) return;
    open.set(socket, (open.get(socket) ?? 0) + 1);
    res.on('close', responseClosed);
  };
}

/** A request node:http could not parse never reaches the pipeline; it still gets the JSON error body. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  answerOnSocket(socket, status, `The HTTP request could not be read: ${STATUS_CODES[status] ?? 'bad request'}.`);
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  rules();
  const resolved = resolveOptions(options);
  const store = new Store();
  const tokens = new TokenStore(resolved.now, resolved.maxTokens);
  // The journal masks what the simulator knows to be secret wherever it appears: see journal.ts.
  const journal = new Journal(resolved.journalSize, {
    secrets: () => [state.options.clientSecret, resolved.adminToken],
    issued: (candidate) => tokens.issued(candidate),
  });
  let current = { seed: resolved.seed, records: resolved.records };
  // A state file that cannot be used stops start-up here, before anything is loaded or listened on.
  const saved = resolved.stateFile !== undefined ? readState(resolved.stateFile) : undefined;
  let seeded: SeedCounts;
  if (saved) {
    applySnapshot(store, saved);
    current = { seed: saved.seed, records: saved.records };
    seeded = countsOf(store);
  } else seeded = await seedStoreCached(store, current.seed, current.records);
  const exportSnapshot = (): string => snapshotText(store, current, resolved.now());
  const stateFile = resolved.stateFile !== undefined
    ? new StateFile(resolved.stateFile, () => snapshotSource(store, current, resolved.now()))
    : undefined;
  if (stateFile) {
    store.onChange = () => stateFile.changed();
    // The file exists from the moment the simulator listens.
    if (!saved) {
      stateFile.changed();
      await stateFile.flush();
    }
  }
  const importSnapshot = (text: string): SeedCounts => {
    const snapshot = parseSnapshot(text);
    applySnapshot(store, snapshot);
    current = { seed: snapshot.seed, records: snapshot.records };
    seeded = countsOf(store);
    dashboard?.storeReplaced();
    return seeded;
  };
  const startedAt = resolved.now();

  const chaos = new Chaos(resolved.chaos);
  let dashboard: Dashboard | undefined;
  const state: PipelineState = {
    options: resolved, store, tokens, journal, baseUrl: '', chaos, rateLimits: new RateLimits(), journaled: () => dashboard?.journaled(),
  };
  const pipeline = new Pipeline(state);
  let origin = '';
  const reseed = async (seed: number, records: number): Promise<SeedCounts> => {
    const next = { seed: integer('seed', seed, 0, Number.MAX_SAFE_INTEGER), records: integer('records', records, 0, MAX_RECORDS) };
    seeded = await seedStoreCached(store, next.seed, next.records);
    current = next;
    journal.clear();
    chaos.rewind();
    dashboard?.journalCleared();
    return seeded;
  };
  const setPersonas = (personas: readonly Persona[]): void => {
    const next = resolveOptions({ ...options, personas: [...personas] });
    // What was fixed at start stays: the socket, the admin token, the clock, the journal and the chaos it began with.
    state.options = {
      ...next, host: resolved.host, port: resolved.port, admin: resolved.admin, adminToken: resolved.adminToken, now: resolved.now,
      journalSize: resolved.journalSize, headersTimeoutMs: resolved.headersTimeoutMs, requestTimeoutMs: resolved.requestTimeoutMs,
      chaos: resolved.chaos, reportDir: resolved.reportDir, maxConnections: resolved.maxConnections, maxTokens: resolved.maxTokens,
    };
    state.baseUrl = `${origin}${state.options.basePath}`;
  };
  const admin: AdminTarget = {
    adminToken: resolved.adminToken,
    maxBodyBytes: resolved.maxBodyBytes,
    health: () => ({
      status: 'up',
      uptimeSeconds: Math.round((resolved.now() - startedAt) / 1000),
      seed: current.seed,
      records: current.records,
      counts: store.counts(),
      tokens: tokens.size,
      journal: journal.size,
      personas: state.options.personas.map((p) => p.name),
      basePath: state.options.basePath,
    }),
    reset: () => reseed(current.seed, current.records),
    reseed,
    current: () => current,
    journal: (limit) => journal.entries(limit),
    expiredToken: () => tokens.issueExpired(state.options.clientId),
    exportSnapshot,
    importSnapshot,
  };
  if (resolved.admin) {
    dashboard = new Dashboard({
      adminToken: resolved.adminToken, maxBodyBytes: resolved.maxBodyBytes, store, journal, chaos,
      options: () => state.options, baseUrl: () => state.baseUrl, current: () => current,
      reset: admin.reset, reseed, setPersonas, expiredToken: admin.expiredToken, conformance: options.conformance,
      exportSnapshot, importSnapshot,
    });
    admin.dashboard = dashboard;
  }

  let countRequest: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    countRequest(req, res);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const work = resolved.admin && rawPath.startsWith(ADMIN_PREFIX)
      ? handleAdmin(admin, req, res, rawPath, query)
      : pipeline.handle(req, res, rawPath, query);
    work?.catch((error: unknown) => {
      process.stderr.write(`rdx simulator: ${(error as Error).message}\n`);
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify(errorBody('The simulator failed on this request.')));
      }
    });
  };

  const server = createServer({
    headersTimeout: resolved.headersTimeoutMs,
    requestTimeout: resolved.requestTimeoutMs,
    // Node enforces both limits only when it checks, every 30 s by default: a slow client would outlive them.
    connectionsCheckingInterval: Math.min(1_000, resolved.headersTimeoutMs),
    keepAliveTimeout: 5_000,
  }, listener);
  server.on('clientError', answerClientError);
  countRequest = capConnections(server, resolved.maxConnections);
  // Left to itself, Node answers an unknown Expect with an empty 417 and drops a CONNECT without a word.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(errorBody(`The expectation ${JSON.stringify(req.headers.expect ?? '')} is not supported; only 100-continue is.`));
    res.writeHead(417, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close' });
    res.end(body);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => answerOnSocket(socket, rules().status.methodNotAllowed, 'CONNECT is not supported: this is not a proxy.'));

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error & { code?: string }): void => {
      const where = `${resolved.host}:${resolved.port}`;
      if (error.code === 'EADDRINUSE') reject(new UsageError(`cannot listen on ${where}: the port is in use`));
      else if (error.code === 'EACCES') reject(new UsageError(`cannot listen on ${where}: permission denied`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new UsageError(`cannot listen on ${where}: no such address`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  origin = `http://${urlHost(resolved.host)}:${port}`;
  state.baseUrl = `${origin}${state.options.basePath}`;

  let closing: Promise<void> | undefined;
  return {
    get baseUrl() {
      return state.baseUrl;
    },
    adminUrl: resolved.admin ? `${origin}${ADMIN_PREFIX}` : undefined,
    dashboardUrl: resolved.admin ? `${origin}${ADMIN_PREFIX}` : undefined,
    adminToken: resolved.adminToken,
    get options() {
      return state.options;
    },
    store,
    journal,
    chaos,
    setPersonas,
    get seeded() {
      return seeded;
    },
    close() {
      closing ??= (async () => {
        dashboard?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // After the last request: the file holds everything a client was answered.
        await stateFile?.close();
      })();
      return closing;
    },
    async reset() {
      await admin.reset();
    },
    reseed,
    expiredToken: admin.expiredToken,
    atsJobOfferFixtureIds: () => atsJobOfferFixtureIds(store, state.options.personas),
    exportSnapshot,
    importSnapshot,
  };
}
