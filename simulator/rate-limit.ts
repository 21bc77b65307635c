// A per-token rate limit, as vendors run in production (rdx simulate --rate-limit R[/BURST]): each access token has a
// bucket of BURST requests that refills at R per second; a request that finds it empty is answered 429 with
// Retry-After and the spec's error body. The token endpoint is never limited (it is how a client gets a token).
import { UsageError } from '../src/errors.js';
import { errorBody } from './envelope.js';
import type { JsonObject } from './context.js';
import type { RateLimitSettings } from './public.js';

// Shown by a started simulator (Simulator.options.rateLimit): declared in public.ts.
export type { RateLimitSettings } from './public.js';

/** Buckets kept at most; past it the oldest is dropped (a client that mints tokens by the thousand gets fresh ones). */
const MAX_BUCKETS = 10_000;

/** Parses "40" or "40/80" (rate per second, then burst; the burst is the rate when not given). */
export function parseRateLimit(text: string, retryAfter: RateLimitSettings['retryAfter'] = 'seconds'): RateLimitSettings {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(\d+))?\s*$/.exec(text);
  const rate = Number(match?.[1]);
  const burst = match?.[2] === undefined ? Math.max(1, Math.ceil(rate)) : Number(match[2]);
  if (!match || !(rate > 0) || rate > 100_000 || !Number.isSafeInteger(burst) || burst < 1 || burst > 1_000_000) {
    throw new UsageError(`rate limit ${JSON.stringify(text)} is not understood: give requests per second per token and, after a slash, the burst (40/80), the rate above 0 and at most 100000`);
  }
  return { rate, burst, retryAfter };
}

/** A 429 the pipeline answers (and personas may restyle: its outcome is 'throttled'). */
export class RateLimited extends Error {
  constructor(readonly retryAfter: string, readonly waitMs: number) {
    super(`Too many requests for this access token; retry after ${Math.ceil(waitMs / 1000)} s.`);
  }

  body(): JsonObject {
    return errorBody(this.message, [`The rate limit allows a burst of requests per token, then a steady rate; wait as Retry-After says.`]);
  }
}

/** The buckets of every token; the settings are read per request so that a persona switched at runtime applies. */
export class RateLimits {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /**
   * Takes one request from the token's bucket (and a DELETE from its own too, when settings.deletes has one), or
   * throws RateLimited with how long until one is there.
   */
  take(token: string, settings: RateLimitSettings, now: number, method = 'GET'): void {
    if (method === 'DELETE' && settings.deletes) this.takeFrom(`DELETE ${token}`, { ...settings, ...settings.deletes }, now);
    this.takeFrom(token, settings, now);
  }

  private takeFrom(key: string, settings: RateLimitSettings, now: number): void {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: settings.burst, at: now };
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string);
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(settings.burst, bucket.tokens + ((now - bucket.at) / 1000) * settings.rate);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const waitMs = ((1 - bucket.tokens) / settings.rate) * 1000;
    // Whole seconds either way (delay-seconds is an integer; an HTTP-date has one-second resolution): rounded up.
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const retryAfter = settings.retryAfter === 'seconds' ? String(seconds) : new Date(Math.ceil(now / 1000) * 1000 + seconds * 1000).toUTCString();
    throw new RateLimited(retryAfter, seconds * 1000);
  }

  clear(): void {
    this.buckets.clear();
  }
}
