// The simulator as a program using the package sees it (src/index.ts exports these): how to start one, what a
// started one offers, its options in force, and its personas as names and descriptions. Nothing here names the
// store, the pipeline or a persona's hooks, so the public declarations (dist/src/index.d.ts) stop at this file and
// settings.ts (test/packaging/public-types.test.ts). The simulator's own types are these with its own Persona put in
// (options.ts, index.ts), so each option and method is declared once, here.
import type { ConformanceRunner } from '../src/core/conformance.js';
import type { PersonaOptions } from './settings.js';

/** What a program may read of a persona; the simulator's own Persona (personas/types.ts) extends it. */
export interface PersonaInfo {
  /** The name given to --fault or --variant (kebab-case). */
  readonly name: string;
  readonly kind: 'fault' | 'variant';
  /** One sentence: what the persona does differently. */
  readonly description: string;
  /** Clause ids of spec/clauses.yaml a fault breaks: exactly these should go red in a harness run. */
  readonly breaks?: readonly string[];
  /** Interpretation ids of spec/interpretations.yaml a variant reads differently from the default. */
  readonly interprets?: readonly string[];
  /** What a vendor whose implementation behaves like this variant declares in its profile (`declared:`). */
  readonly declared?: Readonly<Record<string, unknown>>;
  /** A fault made to show what exploration catches (docs/explore.md). */
  readonly forExploration?: true;
  /** Why the cases that see this fault depend on what runs beside them. */
  readonly acrossCases?: string;
}

/** Only a type: no value holds it, so no program can write a Persona; it gets one from the simulator. */
declare const madeBySimulator: unique symbol;

/**
 * A persona of the bundled simulator, from allPersonas() or personaByName(), to pass back in
 * SimulatorOptions.personas or Simulator.setPersonas(). What it does is the simulator's business: its hooks are not
 * part of the package's types.
 */
export interface Persona extends PersonaInfo {
  readonly [madeBySimulator]: true;
}

/** Added latency for requests that match: any request when path is undefined. */
export interface LatencyRule {
  /** Upper-case method, or undefined for any method. */
  method: string | undefined;
  /** A path of spec/openapi.yaml below the base path; `{param}` segments match any one segment. */
  path: string | undefined;
  minMs: number;
  maxMs: number;
  /** The rule as given, for display. */
  text: string;
}

export interface ChaosSettings {
  latency: readonly LatencyRule[];
  /** Share of API requests answered 503 with the error body and Retry-After. */
  errorRate: number;
  /** Share of API requests whose connection is closed without an answer. */
  dropRate: number;
  seed: number;
}

export interface RateLimitSettings {
  /** Requests per second per token. */
  rate: number;
  /** Requests a token may send at once after a pause. */
  burst: number;
  /** How Retry-After is written: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
  retryAfter: 'seconds' | 'http-date';
  /**
   * A stricter bucket of its own for DELETE, on top of the token's (vendors often limit writes apart). A client
   * that paces itself to the general rate still meets it, in its end-of-run sweep too.
   */
  deletes?: { rate: number; burst: number };
}

/** Records seeded, per resource. */
export interface SeedCounts {
  jobOffers: number;
  applicationSteps: number;
  jobboardActivities: number;
  jobboardJobOffers: number;
  users: number;
}

/** What startSimulator takes, with P the persona type: the public Persona here, the simulator's own inside it. */
export interface SimulatorOptionsOf<P> extends PersonaOptions {
  /** Fault personas and legal variants, applied in order. */
  personas?: readonly P[];
  /** The clock in ms since the epoch (token expiry, journal times); tests inject one. */
  now?: () => number;
  /** The harness, for the dashboard's "Run conformance" (the composition root, src/compose.ts, passes it). */
  conformance?: ConformanceRunner;
  /** A snapshot file the store is loaded from at start (when it exists) and saved to after changes and on close. */
  stateFile?: string;
  /**
   * The {base_url} clients reach the API at, when it is not where the simulator listens (behind a reverse proxy):
   * the absolute links it writes (meta.next_link) start with it.
   */
  publicUrl?: string;
  /** Build those links from Forwarded / X-Forwarded-Host / X-Forwarded-Proto, which only a proxy in front may set. */
  trustProxy?: boolean;
}

/** The options in force, every default filled in. */
export interface ResolvedOptionsOf<P> {
  host: string;
  port: number;
  seed: number;
  records: number;
  pageSize: number;
  clientId: string;
  clientSecret: string;
  tokenTtl: number;
  maxBodyBytes: number;
  basePath: string;
  admin: boolean;
  /** Undefined when the admin surface needs no token (loopback host). */
  adminToken: string | undefined;
  personas: readonly P[];
  now: () => number;
  journalSize: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  chaos: ChaosSettings;
  /** The per-token rate limit, when one is set. */
  rateLimit: RateLimitSettings | undefined;
  reportDir: string | undefined;
  maxConnections: number;
  maxTokens: number;
  stateFile: string | undefined;
  /** Without a trailing slash. */
  publicUrl: string | undefined;
  trustProxy: boolean;
}

/** A started simulator, with P the persona type. */
export interface SimulatorOf<P> {
  /** The spec's {base_url}: origin plus the base path (a persona with a base path, switched on, changes it). */
  readonly baseUrl: string;
  /** Where the admin surface answers; undefined when it is off. */
  readonly adminUrl: string | undefined;
  /** The dashboard page (under the admin surface); undefined when the admin surface is off. */
  readonly dashboardUrl: string | undefined;
  /** The token the admin surface requires (X-Rdx-Admin-Token); undefined on loopback. */
  readonly adminToken: string | undefined;
  /** The options in force: replaced as a whole by setPersonas(). */
  readonly options: ResolvedOptionsOf<P>;
  /** Switches to these personas (none: the plain simulator); requests already under way finish under the old ones. */
  setPersonas(personas: readonly P[]): void;
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

/** The options of startSimulator, as a program gives them. */
export type SimulatorOptions = SimulatorOptionsOf<Persona>;
/** A started simulator, as a program sees it. */
export type Simulator = SimulatorOf<Persona>;
