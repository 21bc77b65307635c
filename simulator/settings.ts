// What can be set on the simulator, by its caller or by a persona (Persona.options). Kept apart from options.ts, which
// also takes the personas themselves, so that the persona types and the option types do not import each other.

/** What a persona may set: everything but the personas, the clock and the conformance runner. */
export interface PersonaOptions {
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Seed of the generated data: one seed, the same data. */
  seed?: number;
  /** Volume of seeded records, all resources together (a fifth of them ATS job offers). */
  records?: number;
  /** Records a list page holds (interpretation PAGE_SIZE by default). */
  pageSize?: number;
  clientId?: string;
  clientSecret?: string;
  /** Token lifetime in seconds (expires_in). */
  tokenTtl?: number;
  /** Largest request body accepted (interpretation LIMITS by default); larger is answered 413. */
  maxBodyBytes?: number;
  /** A path prefix the whole API is mounted under, such as /api/v1; '' by default. */
  basePath?: string;
  /** Serve /__admin/ (health, reset, reseed, journal); true by default. */
  admin?: boolean;
  /** Token the admin surface requires; generated when the host is not a loopback address. */
  adminToken?: string;
  /** Requests the journal keeps. */
  journalSize?: number;
  /** Time allowed to receive a request's headers, and the whole request (slow clients are cut off). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Added latency: `50` ms, a range `20-80`, or per endpoint `GET /ats/job-offers=50` (see chaos.ts). */
  latency?: string | readonly string[];
  /** Share of API requests answered 503 with the error body and Retry-After (0 to 1). */
  errorRate?: number;
  /** Share of API requests whose connection is closed without an answer (0 to 1). */
  dropRate?: number;
  /** Per-token rate limit, `R` or `R/BURST` (requests per second, burst): over it 429 with Retry-After and the error body. */
  rateLimit?: string;
  /** How the rate limit's Retry-After is written: delay-seconds (default) or an HTTP-date. */
  rateLimitRetryAfter?: 'seconds' | 'http-date';
  /** With rateLimit: a stricter per-token limit of its own for DELETE, `R` or `R/BURST` (set by the rate-limited variants). */
  deleteRateLimit?: string;
  /** Seed of the chaos decisions; the data seed by default. */
  chaosSeed?: number;
  /** Where the dashboard's conformance runs write their reports; a temporary directory (removed on close) by default. */
  reportDir?: string;
  /** Open connections served at once; past it the oldest idle one is closed, or the newcomer refused (503) when none is idle. */
  maxConnections?: number;
  /** Access tokens kept; past it expired ones are evicted first, then the oldest live one (noted in the journal). */
  maxTokens?: number;
}
