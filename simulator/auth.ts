// Access tokens and client credentials. Tokens are opaque random strings kept in memory with their expiry.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Live tokens kept at most; past it, expired ones are swept and then the oldest dropped. */
const MAX_TOKENS = 100_000;

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

export class TokenStore {
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  get size(): number {
    return this.tokens.size;
  }

  issue(clientId: string, ttlSeconds: number): string {
    if (this.tokens.size >= MAX_TOKENS) this.prune();
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { clientId, expiresAt: this.now() + ttlSeconds * 1000 });
    return token;
  }

  /** A token that has already expired, for checking that expired tokens are refused without waiting. */
  issueExpired(clientId: string): string {
    return this.issue(clientId, 0);
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

  clear(): void {
    this.tokens.clear();
  }

  private prune(): void {
    const now = this.now();
    for (const [token, entry] of this.tokens) if (now >= entry.expiresAt) this.tokens.delete(token);
    // Map order is issue order, so the first keys are the oldest.
    for (const token of this.tokens.keys()) {
      if (this.tokens.size < MAX_TOKENS) break;
      this.tokens.delete(token);
    }
  }
}
