// Client-credentials tokens from the spec's JSON token endpoint: fetched once, reused, fetched again a little
// before expiry and once after a 401 (a target may revoke tokens early). The one reader of a token answer and the
// one writer of a bearer Authorization header: a request that carries the run's token is sent through send().
import type { Exchange } from '../core/results.js';
import type { HttpClient, OutgoingRequest, ThrottledAnswer } from './client.js';
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

/**
 * How a token request failed, which decides whether the run can judge the target at all:
 * - 'no-answer': nothing answered (a transport error), or a gateway said the service behind it did not (502, 503,
 *   504): there is no implementation to judge (exit 3);
 * - 'refused': the credentials were refused (401, 403, a 400 with a JSON body): the user's to fix (exit 3);
 * - 'not-here': nothing answers at that URL as a token endpoint (404, 405, 410, 501, a redirect elsewhere): most likely
 *   a wrong URL (exit 3);
 * - 'answered': the token endpoint answered, but with no usable token (not JSON, compressed bytes without a coding,
 *   no access_token, a server error): that is the implementation's failure, judged and reported like any other.
 */
export type TokenFailureKind = 'no-answer' | 'refused' | 'not-here' | 'answered';

export function tokenFailureKind(exchange: Exchange | undefined): TokenFailureKind {
  const res = exchange?.response;
  if (!res || [502, 503, 504].includes(res.status)) return 'no-answer';
  if (credentialsRefused(res.status, res.json !== undefined)) return 'refused';
  if (NO_TOKEN_ENDPOINT.has(res.status) || (res.status >= 300 && res.status < 400)) return 'not-here';
  return 'answered';
}

/** Statuses that say nothing answers at that URL as a token endpoint. */
const NO_TOKEN_ENDPOINT: ReadonlySet<number> = new Set([404, 405, 410, 501]);

/** Whether a token answer refuses the credentials (a 400 with an OAuth error body counts; one of HTML does not). */
const credentialsRefused = (status: number, json: boolean): boolean => status === 401 || status === 403 || (status === 400 && json);

export function tokenRequestBody(credentials: Credentials): string {
  return JSON.stringify({
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    ...(credentials.grantType !== null ? { grant_type: credentials.grantType } : {}),
  });
}

/**
 * The most tokens one run fetches. A real run needs one, plus one per expiry: a token living a minute makes 60 in
 * an hour. A target whose tokens die at once would make the run fetch one per request, each a secret to mask.
 */
export const MAX_TOKENS = 500;

/** RFC 6750 §2.1 b64token: what a bearer token may hold so that it can be sent in an Authorization header. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The Authorization value that carries a bearer token (RFC 6750 §2.1). */
export const bearer = (token: string): string => `Bearer ${token}`;

/** A request with the token as its Authorization, whatever it carried. */
const withBearer = (request: OutgoingRequest, token: string): OutgoingRequest =>
  ({ ...request, headers: { ...request.headers, authorization: bearer(token) } });

/**
 * Why a token the target issued cannot be used, or undefined. Not a rule of the spec (it judges nothing): the
 * harness cannot send a token HTTP forbids in a header, nor run on a token that lives no time at all.
 */
function unusableToken(token: string, lifetimeMs: number, expiresIn: number): string | undefined {
  const notBearer = notHeaderSafe(token);
  if (notBearer) return notBearer;
  if (!(lifetimeMs > 0)) return `its token lives no time (expires_in: ${expiresIn}), so every request would need a new one`;
  return undefined;
}

/** Why a token cannot be sent in an Authorization header, or undefined. */
function notHeaderSafe(token: string): string | undefined {
  const bad = B64TOKEN.test(token) ? undefined : /[^A-Za-z0-9\-._~+/=]/.exec(token) ?? /=[^=]/.exec(token);
  if (!bad) return undefined;
  const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `its access_token is not a bearer token (RFC 6750 §2.1 b64token: letters, digits, -._~+/ then =): it holds U+${code} at index ${bad.index}, so it cannot be sent in an Authorization header`;
}

/** The token of an answer of the token endpoint and its expires_in, or undefined when it issued none. */
function issued(exchange: Exchange): { token: string; expiresIn: number | undefined } | undefined {
  const res = exchange.response;
  const body = res?.json as Record<string, unknown> | undefined;
  const token = body?.['access_token'];
  if (!res || res.status >= 300 || typeof token !== 'string' || token.length === 0) return undefined;
  const expiresIn = body?.['expires_in'];
  return { token, expiresIn: typeof expiresIn === 'number' ? expiresIn : undefined };
}

/** What sends a request with the run's token (a TokenProvider): what an id lookup and the sweep need of it. */
export interface TokenSender {
  /** `throttled`: where the throttled answers met go (a case's own list; HttpClient.send). */
  send(label: string, request: OutgoingRequest, throttled?: ThrottledAnswer[]): Promise<Exchange>;
}

/** The longest a token may live for the run to wait it out as an expired token (the expiry cases). */
const EXPIRY_WAIT_MS = 5000;

export class TokenProvider implements TokenSender {
  private cached?: { token: string; expiresAt: number };
  /** Tokens fetched so far (MAX_TOKENS). */
  private fetched = 0;
  /** The fetch under way: cases running side by side that all need a new token share it (one request, one token). */
  private fetching?: Promise<string>;

  constructor(
    private readonly http: HttpClient,
    private readonly tokenUrl: string,
    private readonly credentials: Credentials,
    private readonly secrets: Secrets,
    private readonly unit: ExpiresInUnit = 'seconds',
  ) {
    secrets.add(credentials.clientSecret);
  }

  /** Set by giveUp(): every later token() is refused with it, and no request is sent. */
  private failure?: TokenError;

  /** The run's token; a token request it sends keeps its throttled answers in `throttled` (HttpClient.send). */
  async token(throttled?: ThrottledAnswer[]): Promise<string> {
    if (this.failure) throw this.failure;
    if (this.cached && Date.now() < this.cached.expiresAt) return this.cached.token;
    this.fetching ??= this.fetch(throttled).finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  /**
   * Sends the request with the run's token as its Authorization and, after a 401, once more with a fresh token: a
   * target may revoke a token before it expires. A TokenError when no token can be had. `dispatched`: as HttpClient.send.
   */
  async send(label: string, request: OutgoingRequest, throttled?: ThrottledAnswer[], dispatched?: () => void): Promise<Exchange> {
    const used = await this.token(throttled);
    const first = await this.http.send(label, withBearer(request, used), throttled, dispatched);
    if (first.response?.status !== 401) return first;
    this.invalidate(used);
    return this.http.send(label, withBearer(request, await this.token(throttled)), throttled, dispatched);
  }

  /**
   * The run's first token request failed and the run goes on to be judged without one: every case that needs a token
   * gets this error at once, instead of each asking the endpoint again.
   */
  giveUp(failure: TokenError): void {
    this.failure = failure;
  }

  /**
   * A token of this client that has expired, for the expiry cases: a fresh one, waited out when it lives
   * EXPIRY_WAIT_MS or less; otherwise why there is none.
   */
  async expiredToken(throttled?: ThrottledAnswer[]): Promise<string | { unavailable: string }> {
    let exchange: Exchange;
    try {
      exchange = await this.request('expired token', throttled);
    } catch (error) {
      return { unavailable: (error as Error).message };
    }
    const answer = issued(exchange);
    if (answer?.expiresIn === undefined) return { unavailable: 'no token to let expire' };
    this.secrets.add(answer.token);
    const unusable = notHeaderSafe(answer.token);
    if (unusable) return { unavailable: `the token endpoint issued a token the run cannot send: ${unusable}` };
    const lifetime = answer.expiresIn * UNIT_MS[this.unit];
    if (lifetime > EXPIRY_WAIT_MS) {
      return { unavailable: `tokens live ${answer.expiresIn} ${this.unit}; too long to wait for one to expire (give fixtures.expiredToken in the profile)` };
    }
    await new Promise((r) => setTimeout(r, Math.max(0, lifetime) + 1000));
    return answer.token;
  }

  /**
   * Forget the cached token after a 401, so the next call fetches a new one. Only the token that was refused: a
   * token another case fetched since then is kept, so side-by-side cases do not fetch one each.
   */
  private invalidate(refused: string): void {
    if (this.cached?.token === refused) this.cached = undefined;
  }

  /** One request to the token endpoint, counted against MAX_TOKENS. */
  private async request(label: string, throttled?: ThrottledAnswer[]): Promise<Exchange> {
    if (this.fetched >= MAX_TOKENS) {
      throw new TokenError(`the token endpoint ${this.tokenUrl} has issued ${MAX_TOKENS} tokens in this run, each expiring before the next request; the run does not fetch more`);
    }
    this.fetched++;
    return this.http.send(label, {
      method: 'POST',
      url: this.tokenUrl,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: tokenRequestBody(this.credentials),
    }, throttled);
  }

  private async fetch(throttled?: ThrottledAnswer[]): Promise<string> {
    const exchange = await this.request('token', throttled);
    if (exchange.transportError) {
      throw new TokenError(`the token endpoint ${this.tokenUrl} did not answer: ${exchange.transportError.message}`, exchange);
    }
    const res = exchange.response;
    const answer = issued(exchange);
    if (!res || !answer) throw new TokenError(tokenFailure(this.tokenUrl, res?.status, res?.json !== undefined, res?.bodyProblem), exchange);
    const { token } = answer;
    this.secrets.add(token);
    const expiresIn = answer.expiresIn ?? 3600;
    // Refresh a little early (10%, at most 30 s) so a token never expires mid-request.
    const lifetime = expiresIn * UNIT_MS[this.unit];
    const unusable = unusableToken(token, lifetime, expiresIn);
    if (unusable) throw new TokenError(`the token endpoint ${this.tokenUrl} issued a token the run cannot use: ${unusable}`, exchange);
    this.cached = { token, expiresAt: Date.now() + lifetime - Math.min(lifetime * 0.1, 30_000) };
    return token;
  }
}

/**
 * Why no token came back, in words that point at the fix: a wrong URL (nothing answers there as a token endpoint)
 * is a different mistake from wrong credentials, and the user fixes it with another flag.
 */
export function tokenFailure(tokenUrl: string, status: number | undefined, json: boolean, bodyProblem?: string): string {
  const urlHint = 'check --base-url (the token endpoint is <base-url>/oauth2/token) or name it with --token-url';
  const why = ((): string => {
    if (status === undefined) return `no answer; ${urlHint}`;
    if (NO_TOKEN_ENDPOINT.has(status)) {
      return `no token endpoint answered at that URL (status ${status}); ${urlHint}`;
    }
    if (credentialsRefused(status, json)) {
      return `the credentials were refused (status ${status}); check the client id and secret (--client-id, RDX_CLIENT_ID, RDX_CLIENT_SECRET)`;
    }
    if (status >= 500) return `the server failed (status ${status}${bodyProblem ? `; ${bodyProblem}` : ''})`;
    if (!json) return `status ${status}: ${bodyProblem ?? 'the body is not JSON'}`;
    if (status < 300) return `status ${status}, but its JSON carries no access_token`;
    return `status ${status}; ${urlHint}, and the client id and secret`;
  })();
  return `the token endpoint ${tokenUrl} gave no access_token: ${why}`;
}
