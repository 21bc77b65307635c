// The simulator's state, one object: the options in force, the store and the seed it was made from, the tokens
// issued, the journal, chaos and the rate limits, and the state file that keeps the store. The request pipeline
// reads it (it is the PipelineState); only the admin service (admin/service.ts) changes it after start-up.
import { TokenStore } from './auth.js';
import { Chaos } from './chaos.js';
import { Journal } from './journal.js';
import { MAX_RECORDS, integer, resolveOptions, type ResolvedOptions, type SimulatorOptions } from './options.js';
import { atsJobOfferFixtureIds } from './personas/catalogue.js';
import type { Persona } from './personas/types.js';
import { RateLimits } from './rate-limit.js';
import type { SeedCounts } from './seed.js';
import { seedStoreCached } from './seed-cache.js';
import type { PipelineState } from './server.js';
import { applySnapshot, parseSnapshot, snapshotSource, snapshotText } from './snapshot.js';
import { StateFile, readState } from './state.js';
import { Store } from './store.js';

/** The seed and volume the store was made from: what a reset returns to. */
export interface Origin {
  seed: number;
  records: number;
}

function countsOf(store: Store): SeedCounts {
  const { jobOffers = 0, applicationSteps = 0, jobboardActivities = 0, jobboardJobOffers = 0, users = 0 } = store.counts();
  return { jobOffers, applicationSteps, jobboardActivities, jobboardJobOffers, users };
}

export class SimulatorState implements PipelineState {
  /** Replaced as a whole by setPersonas(); a request keeps the options it started with. */
  options: ResolvedOptions;
  /** The spec's {base_url}: set once the server listens, and moved by a persona's base path. */
  baseUrl = '';
  readonly store = new Store();
  readonly tokens: TokenStore;
  readonly journal: Journal;
  readonly chaos: Chaos;
  readonly rateLimits = new RateLimits();
  readonly startedAt: number;
  /** Called after each journal entry is added (the dashboard's live journal sets it). */
  journaled: (() => void) | undefined;
  private made: Origin;
  private counts: SeedCounts = countsOf(this.store);
  private origin = '';
  private stateFile: StateFile | undefined;

  /** start: the options as given (personas switched later are resolved against them); resolved: as in force at start. */
  private constructor(private readonly start: SimulatorOptions, readonly resolved: ResolvedOptions) {
    this.options = resolved;
    this.tokens = new TokenStore(resolved.now, resolved.maxTokens);
    // The journal masks what the simulator knows to be secret wherever it appears: see journal.ts.
    this.journal = new Journal(resolved.journalSize, {
      secrets: () => [this.options.clientSecret, resolved.adminToken],
      issued: (candidate) => this.tokens.issued(candidate),
    });
    this.chaos = new Chaos(resolved.chaos);
    this.made = { seed: resolved.seed, records: resolved.records };
    this.startedAt = resolved.now();
  }

  /** The state for these options: the store loaded from the state file when there is one, seeded otherwise. */
  static async create(start: SimulatorOptions): Promise<SimulatorState> {
    const resolved = resolveOptions(start);
    // A state file that cannot be used stops start-up here, before anything is loaded or listened on.
    const saved = resolved.stateFile !== undefined ? readState(resolved.stateFile) : undefined;
    const state = new SimulatorState(start, resolved);
    if (saved) {
      applySnapshot(state.store, saved);
      state.made = { seed: saved.seed, records: saved.records };
      state.counts = countsOf(state.store);
    } else state.counts = await seedStoreCached(state.store, state.made.seed, state.made.records);
    if (resolved.stateFile !== undefined) {
      const file = new StateFile(resolved.stateFile, () => snapshotSource(state.store, state.made, resolved.now()));
      state.stateFile = file;
      state.store.onChange = () => file.changed();
      // The file exists from the moment the simulator listens.
      if (!saved) {
        file.changed();
        await file.flush();
      }
    }
    return state;
  }

  /** The seed and volume the store was made from. */
  get current(): Origin {
    return this.made;
  }

  /** Records seeded (or loaded from a snapshot), per resource. */
  get seeded(): SeedCounts {
    return this.counts;
  }

  /** The server listens at origin (http://host:port): the base URL follows from it. */
  listening(origin: string): void {
    this.origin = origin;
    this.baseUrl = `${origin}${this.options.basePath}`;
  }

  /** New seed data, which a reset returns to; the journal is emptied and chaos starts its sequence again. */
  async reseed(seed: number, records: number): Promise<SeedCounts> {
    const next = { seed: integer('seed', seed, 0, Number.MAX_SAFE_INTEGER), records: integer('records', records, 0, MAX_RECORDS) };
    this.counts = await seedStoreCached(this.store, next.seed, next.records);
    this.made = next;
    this.journal.clear();
    this.chaos.rewind();
    return this.counts;
  }

  /** The store as a snapshot document (snapshot.ts). */
  exportSnapshot(): string {
    return snapshotText(this.store, this.made, this.resolved.now());
  }

  /** Replaces the store with a snapshot's records, all or nothing; throws SnapshotError saying what is wrong. */
  importSnapshot(text: string): SeedCounts {
    const snapshot = parseSnapshot(text);
    applySnapshot(this.store, snapshot);
    this.made = { seed: snapshot.seed, records: snapshot.records };
    this.counts = countsOf(this.store);
    return this.counts;
  }

  /** Switches to these personas (none: the plain simulator); requests already under way finish under the old ones. */
  setPersonas(personas: readonly Persona[]): void {
    const next = resolveOptions({ ...this.start, personas: [...personas] });
    const r = this.resolved;
    // What was fixed at start stays: the socket, the admin token, the clock, the journal and the chaos it began with.
    this.options = {
      ...next, host: r.host, port: r.port, admin: r.admin, adminToken: r.adminToken, now: r.now,
      journalSize: r.journalSize, headersTimeoutMs: r.headersTimeoutMs, requestTimeoutMs: r.requestTimeoutMs,
      chaos: r.chaos, reportDir: r.reportDir, maxConnections: r.maxConnections, maxTokens: r.maxTokens,
    };
    this.baseUrl = `${this.origin}${this.options.basePath}`;
  }

  /** A bearer token of the configured client that has already expired. */
  expiredToken(): string {
    return this.tokens.issueExpired(this.options.clientId);
  }

  /** The {id} of a job offer the simulator seeded, as the active personas address it. */
  atsJobOfferFixtureIds(): string[] {
    return atsJobOfferFixtureIds(this.store, this.options.personas);
  }

  /** After the last request: the state file holds everything a client was answered. */
  async close(): Promise<void> {
    await this.stateFile?.close();
  }
}
