// Rate-limited targets: a 429, or a 503 that carries Retry-After, is the target asking the client to come back later,
// not its answer to the request. How long to wait (Retry-After, else exponential backoff with jitter), within which
// caps, and a client-side pace that one run shares across all its requests and slows after each 429 (AIMD).

/** The caps on waiting for a throttled target (profile keys http.maxWaitMs and http.maxTotalWaitMs). */
export interface ThrottlePolicy {
  /** Longest single wait; a longer Retry-After is waited this long, then the request is sent again. */
  maxWaitMs: number;
  /** All the waits of one run together; past it a throttled request gets "no answer". */
  maxTotalWaitMs: number;
}

export const DEFAULT_MAX_WAIT_MS = 60_000;
export const DEFAULT_MAX_TOTAL_WAIT_MS = 600_000;
/** Throttled answers to one request before it is given up, whatever the waits: Retry-After: 0 must not spin. */
export const MAX_THROTTLED_ANSWERS = 12;
/** First backoff step when a throttled answer says nothing of when to come back; it doubles per answer. */
const BACKOFF_BASE_MS = 500;

/** Whether an answer asks the client to come back later rather than answering the request (RFC 6585 §4, RFC 9110 §15.6.4). */
export function isThrottled(status: number, headers: Record<string, string>): boolean {
  return status === 429 || (status === 503 && headers['retry-after'] !== undefined);
}

const DELAY_SECONDS = /^\s*(\d{1,10})\s*$/;
// IMF-fixdate, the obsolete RFC 850 form and asctime (RFC 9110 §5.6.7), all read as UTC.
const HTTP_DATE = /^\s*(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})\s*$/;

/** Milliseconds since the epoch of an HTTP-date, undefined for anything else. */
export function httpDate(text: string): number | undefined {
  if (!HTTP_DATE.test(text)) return undefined;
  // Date.parse reads asctime in local time: pin it to UTC as RFC 9110 says.
  const ms = Date.parse(/GMT\s*$/.test(text) ? text : `${text.trim()} GMT`);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The wait a Retry-After asks for, in ms: delay-seconds, or an HTTP-date measured against the answer's own Date
 * header when it has one (so a target's clock skew does not lengthen or cut the wait), else against ours.
 * undefined when the header is missing or is neither form.
 */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = DELAY_SECONDS.exec(value);
  if (seconds) return Number(seconds[1]) * 1000;
  const at = httpDate(value);
  if (at === undefined) return undefined;
  const served = headers['date'] !== undefined ? httpDate(headers['date']) : undefined;
  return Math.max(0, at - (served ?? now));
}

/** Exponential backoff with jitter for the n-th throttled answer (0-based): between half and all of 500 ms · 2^n. */
export function backoffMs(n: number, random: () => number = Math.random): number {
  const step = BACKOFF_BASE_MS * 2 ** Math.min(n, 16);
  return Math.round(step / 2 + random() * (step / 2));
}

/** How long to wait after the n-th throttled answer to one request, before the caps. */
export function throttleWaitMs(headers: Record<string, string>, n: number, now = Date.now(), random: () => number = Math.random): number {
  return retryAfterMs(headers, now) ?? backoffMs(n, random);
}

/**
 * Resolves after ms, or at once when the signal aborts. The timer keeps the process alive: the run awaits it, and an
 * unref'd one let Node end a run in the middle of a Retry-After wait, with no report and exit code 0 (issue 36).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The slowest pace adaptive slowing goes down to, in requests per second. */
const MIN_RATE = 0.5;
/** After a 429 the pace drops to this share of what it was. */
const SLOW_FACTOR = 0.7;
/** Sends remembered to measure the pace the run actually went at when the first 429 came. */
const WINDOW = 64;
/** The pace assumed when a 429 comes before there is a pace to measure (the run's first requests). */
const UNMEASURED_RATE = 10;
/** Throttled answers within this long of a slow-down are the same overload: one decrease per period (as TCP per RTT). */
const SLOW_PERIOD_MS = 1000;

/**
 * The run's one request budget: at most `ceiling` requests per second (--rate, http.rateLimit) when given, and after a
 * throttled answer a pace below the one that met it, raised again slowly while answers come back unthrottled
 * (additive increase, multiplicative decrease), never above the ceiling.
 */
export class RateLimiter {
  private rate: number | undefined;
  private nextAt = 0;
  private slowedAt = -Infinity;
  private readonly sent: number[] = [];

  constructor(private readonly ceiling?: number, private readonly now: () => number = () => performance.now()) {
    this.rate = ceiling;
  }

  /** Requests per second the run is held to now; undefined while nothing holds it. */
  get current(): number | undefined {
    return this.rate;
  }

  /** Waits for the next request's turn; returns how long it waited (ms). */
  async acquire(signal?: AbortSignal): Promise<number> {
    const now = this.now();
    let wait = 0;
    if (this.rate !== undefined) {
      const at = Math.max(now, this.nextAt);
      wait = at - now;
      this.nextAt = at + 1000 / this.rate;
    }
    this.sent.push(now + wait);
    if (this.sent.length > WINDOW) this.sent.shift();
    await sleep(wait, signal);
    return wait;
  }

  /** A throttled answer: slow down below the pace that met it. */
  slowDown(): void {
    const now = this.now();
    if (now - this.slowedAt < SLOW_PERIOD_MS) return;
    this.slowedAt = now;
    const pace = Math.min(this.rate ?? Infinity, this.measured());
    this.rate = Math.max(MIN_RATE, (Number.isFinite(pace) ? pace : UNMEASURED_RATE) * SLOW_FACTOR);
    // The next request waits a whole interval at the new pace, not the old one's leftover.
    this.nextAt = Math.max(this.nextAt, now + 1000 / this.rate);
  }

  /** An answer that was not throttled: speed up by about one request per second per second, up to the ceiling. */
  relax(): void {
    if (this.rate === undefined) return;
    const raised = this.rate + 1 / this.rate;
    this.rate = this.ceiling === undefined ? raised : Math.min(this.ceiling, raised);
  }

  /** The pace of the last sends, in requests per second (Infinity before there are two). */
  private measured(): number {
    const first = this.sent[0];
    const last = this.sent[this.sent.length - 1];
    if (first === undefined || last === undefined || this.sent.length < 2 || last <= first) return Infinity;
    return ((this.sent.length - 1) * 1000) / (last - first);
  }
}

// The figures themselves are part of the report contract (src/core/report.ts).
import type { TransportStats } from '../core/report.js';
export type { TransportStats };
