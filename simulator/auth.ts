// Access tokens and client credentials. Tokens are opaque random strings kept in memory with their expiry.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Live tokens kept by default; past it, expired ones are evicted first, then the oldest (see TokenStore). */
export const MAX_TOKENS = 100_000;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Compares in constant time: digests are of equal length whatever the input, and both checks always run. */
export function credentialsMatch(expected: { clientId: string; clientSecret: string }, clientId: string, clientSecret: string): boolean {
  const idOk = timingSafeEqual(digest(expected.clientId), digest(clientId));
  const secretOk = timingSafeEqual(digest(expected.clientSecret), digest(clientSecret));
  return idOk && secretOk;
}

export function secretsEqual(expected: string, given: string): boolean {
  return timingSafeEqual(digest(expected), digest(given));
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 9110 §11.1). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}

export type TokenCheck = { ok: true; clientId: string } | { ok: false; reason: 'invalid' | 'expired' };

/** Tokens evicted to make room since the last look: expired ones, and live ones (only when none had expired). */
export interface Evictions {
  expired: number;
  live: number;
}

const RANDOM_BYTES = 24;
const TAG_BYTES = 8;

/**
 * Access tokens: 24 random bytes and an 8-byte HMAC tag under a key that never leaves the process, base64url
 * (43 characters). The tag lets the simulator recognise a token it issued wherever it turns up (to mask it in the
 * journal) long after the token expired or was evicted, without keeping it.
 *
 * At most `cap` tokens are kept. When a new one would pass the cap, every expired token is evicted first; only
 * when none has expired is the oldest live token evicted, and each eviction is counted for the journal.
 */
export class TokenStore {
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly key = randomBytes(32);
  /** No kept token expires before this: until then a full sweep for expired tokens would find none. */
  private earliestExpiry = Infinity;
  private evictions: Evictions = { expired: 0, live: 0 };

  constructor(private readonly now: () => number, readonly cap = MAX_TOKENS) {}

  get size(): number {
    return this.tokens.size;
  }

  issue(clientId: string, ttlSeconds: number): string {
    if (this.tokens.size >= this.cap) this.makeRoom();
    const random = randomBytes(RANDOM_BYTES);
    const token = Buffer.concat([random, this.tag(random)]).toString('base64url');
    const expiresAt = this.now() + ttlSeconds * 1000;
    this.tokens.set(token, { clientId, expiresAt });
    this.earliestExpiry = Math.min(this.earliestExpiry, expiresAt);
    return token;
  }

  /** A token that has already expired, for checking that expired tokens are refused without waiting. */
  issueExpired(clientId: string): string {
    return this.issue(clientId, 0);
  }

  /** Whether this simulator issued the string as a token (live, expired or evicted alike); constant time per call. */
  issued(candidate: string): boolean {
    if (candidate.length !== 43 || !/^[A-Za-z0-9_-]+$/.test(candidate)) return false;
    const bytes = Buffer.from(candidate, 'base64url');
    if (bytes.length !== RANDOM_BYTES + TAG_BYTES) return false;
    return timingSafeEqual(bytes.subarray(RANDOM_BYTES), this.tag(bytes.subarray(0, RANDOM_BYTES)));
  }

  check(token: string): TokenCheck {
    const entry = this.tokens.get(token);
    if (!entry) return { ok: false, reason: 'invalid' };
    if (this.now() >= entry.expiresAt) {
      this.tokens.delete(token);
      return { ok: false, reason: 'expired' };
    }
    return { ok: true, clientId: entry.clientId };
  }

  /** Evictions since the last call, then zero. */
  takeEvictions(): Evictions | undefined {
    const { expired, live } = this.evictions;
    if (expired === 0 && live === 0) return undefined;
    this.evictions = { expired: 0, live: 0 };
    return { expired, live };
  }

  clear(): void {
    this.tokens.clear();
    this.earliestExpiry = Infinity;
  }

  private tag(random: Buffer): Buffer {
    return createHmac('sha256', this.key).update(random).digest().subarray(0, TAG_BYTES);
  }

  private makeRoom(): void {
    const now = this.now();
    if (now >= this.earliestExpiry) {
      let earliest = Infinity;
      for (const [token, entry] of this.tokens) {
        if (now >= entry.expiresAt) {
          this.tokens.delete(token);
          this.evictions.expired += 1;
        } else earliest = Math.min(earliest, entry.expiresAt);
      }
      this.earliestExpiry = earliest;
    }
    // Map order is issue order, so the first keys are the oldest.
    for (const token of this.tokens.keys()) {
      if (this.tokens.size < this.cap) break;
      this.tokens.delete(token);
      this.evictions.live += 1;
    }
  }
}
