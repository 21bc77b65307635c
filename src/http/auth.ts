// Client-credentials tokens from the spec's JSON token endpoint: fetched once, reused, fetched again a little
// before expiry and once after a 401 (a target may revoke tokens early).
import type { Exchange } from '../core/results.js';
import type { HttpClient } from './client.js';
import type { Secrets } from './redact.js';

export interface Credentials {
  clientId: string;
  clientSecret: string;
  /** The grant_type to send; null leaves it out (interpretation GRANT_TYPE). */
  grantType: string | null;
}

/** Milliseconds per unit of expires_in (interpretation EXPIRES_IN_UNIT). */
const UNIT_MS = { seconds: 1000, milliseconds: 1, minutes: 60_000 } as const;
export type ExpiresInUnit = keyof typeof UNIT_MS;

export class TokenError extends Error {
  constructor(message: string, readonly exchange?: Exchange) {
    super(message);
  }
}

export function tokenRequestBody(credentials: Credentials): string {
  return JSON.stringify({
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    ...(credentials.grantType !== null ? { grant_type: credentials.grantType } : {}),
  });
}

export class TokenProvider {
  private cached?: { token: string; expiresAt: number };
  /** The exchange that produced the current token, kept for the report's evidence. */
  lastExchange?: Exchange;

  constructor(
    private readonly http: HttpClient,
    private readonly tokenUrl: string,
    private readonly credentials: Credentials,
    private readonly secrets: Secrets,
    private readonly unit: ExpiresInUnit = 'seconds',
  ) {
    secrets.add(credentials.clientSecret);
  }

  async token(): Promise<string> {
    if (this.cached && Date.now() < this.cached.expiresAt) return this.cached.token;
    return this.fetch();
  }

  /** Forget the cached token, e.g. after a 401, so the next call fetches a new one. */
  invalidate(): void {
    this.cached = undefined;
  }

  private async fetch(): Promise<string> {
    const exchange = await this.http.send('token', {
      method: 'POST',
      url: this.tokenUrl,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: tokenRequestBody(this.credentials),
    });
    this.lastExchange = exchange;
    if (exchange.transportError) {
      throw new TokenError(`the token endpoint ${this.tokenUrl} did not answer: ${exchange.transportError.message}`, exchange);
    }
    const res = exchange.response;
    const body = res?.json as Record<string, unknown> | undefined;
    const token = body?.['access_token'];
    if (!res || res.status >= 300 || typeof token !== 'string' || token.length === 0) {
      throw new TokenError(tokenFailure(this.tokenUrl, res?.status, res?.json !== undefined), exchange);
    }
    this.secrets.add(token);
    const expiresIn = typeof body?.['expires_in'] === 'number' ? (body['expires_in'] as number) : 3600;
    // Refresh a little early (10%, at most 30 s) so a token never expires mid-request.
    const lifetime = expiresIn * UNIT_MS[this.unit];
    this.cached = { token, expiresAt: Date.now() + lifetime - Math.min(lifetime * 0.1, 30_000) };
    return token;
  }
}

/**
 * Why no token came back, in words that point at the fix: a wrong URL (nothing answers there as a token endpoint)
 * is a different mistake from wrong credentials, and the user fixes it with another flag.
 */
export function tokenFailure(tokenUrl: string, status: number | undefined, json: boolean): string {
  const urlHint = 'check --base-url (the token endpoint is <base-url>/oauth2/token) or name it with --token-url';
  const why = ((): string => {
    if (status === undefined) return `no answer; ${urlHint}`;
    if (status === 404 || status === 405 || status === 410 || status === 501) {
      return `no token endpoint answered at that URL (status ${status}); ${urlHint}`;
    }
    if (status === 401 || status === 403 || (status === 400 && json)) {
      return `the credentials were refused (status ${status}); check the client id and secret (--client-id, RDX_CLIENT_ID, RDX_CLIENT_SECRET)`;
    }
    if (status >= 500) return `the server failed (status ${status}); try again later, or ${urlHint}`;
    if (!json) return `status ${status} with a body that is not JSON, so probably not a token endpoint; ${urlHint}`;
    if (status < 300) return `status ${status}, but its JSON carries no access_token`;
    return `status ${status}; ${urlHint}, and the client id and secret`;
  })();
  return `the token endpoint ${tokenUrl} gave no access_token: ${why}`;
}
