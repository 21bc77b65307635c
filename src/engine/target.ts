// Reaching the target of a run: the bundled simulator when no base URL is given, the secrets to mask, the HTTP client
// bound to the target's origins, and a token that has expired for the expiry case.
import { randomBytes } from 'node:crypto';
import type { Profile } from '../config/profile.js';
import { UnreachableError, UsageError } from '../errors.js';
import { HttpClient, type ThrottledAnswer } from '../http/client.js';
import { TokenError, tokenFailureKind, type TokenProvider } from '../http/auth.js';
import { Secrets, stripUserinfo } from '../http/redact.js';
import type { StartEmbeddedTarget } from '../core/embedded.js';
import { endpointOf } from './latency.js';

/** The target a run reaches, and the profile it runs with (the caller's, with what an embedded target adds). */
export interface Target {
  profile: Profile;
  baseUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Closes the bundled simulator the run started, if it started one. */
  closeSimulator?: () => Promise<void>;
}

/** The profile's target, or the bundled simulator started for the run when the profile gives no base URL. */
export async function reachTarget(given: Profile, simulator: StartEmbeddedTarget | undefined): Promise<Target> {
  if (given.baseUrl) return { profile: given, baseUrl: given.baseUrl, clientId: given.clientId, clientSecret: given.clientSecret };
  // No target given: the bundled simulator, in-process on a free loopback port, with throwaway credentials.
  if (!simulator) throw new UsageError('no target: give --base-url, RDX_BASE_URL or baseUrl in the config file', 'RDX_ERR_NO_TARGET');
  const clientId = 'rdx-embedded';
  const clientSecret = randomBytes(18).toString('base64url');
  const sim = await simulator({ seed: given.seed, clientId, clientSecret });
  // The run against the bundled simulator is complete: the simulator mints a token that has already expired (so
  // the expiry case runs without waiting an hour), names a job offer it seeded, and is thrown away after the run,
  // so the irreversible tier runs too.
  const expired = given.fixtures.expiredToken ? undefined : await Promise.resolve(sim.expiredToken()).catch(async (error: unknown) => {
    await sim.close();
    throw error;
  });
  const profile: Profile = {
    ...given,
    fixtures: {
      ...given.fixtures,
      ...(expired ? { expiredToken: expired } : {}),
      ...(!given.fixtures.atsJobOfferIds?.length && sim.atsJobOfferFixtureIds ? { atsJobOfferIds: sim.atsJobOfferFixtureIds() } : {}),
    },
    allowIrreversible: true,
  };
  return { profile, baseUrl: sim.baseUrl, clientId, clientSecret, closeSimulator: () => sim.close() };
}

/** What the run masks everywhere it writes: the client secret in every form it is sent in, and what the profile read from the environment. */
export function runSecrets(profile: Profile, clientId: string, clientSecret: string, baseUrl: string, tokenUrl: string): Secrets {
  const secrets = new Secrets();
  secrets.add(clientSecret);
  // Basic credentials carry the secret in base64: a case that sends them must not leak it either.
  secrets.add(Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64'));
  // The form-encoded token request carries the secret encoded: masked in that form too.
  secrets.add(new URLSearchParams({ s: clientSecret }).toString().slice(2));
  secrets.add(encodeURIComponent(clientSecret));
  // The target's identity is never masked, even where a token happens to equal its host, or where the base URL
  // itself came from the environment (it is shown, without userinfo, as the run's target anyway).
  for (const url of [baseUrl, tokenUrl]) {
    secrets.protect(originOrNothing(url));
    secrets.protect(stripUserinfo(url));
  }
  // Whatever the profile took from the environment, under any key: that is where a profile keeps a credential.
  for (const e of profile.envExpansions ?? []) e.values.forEach((v) => secrets.add(v));
  // A password in a URL the user named (base, token, proxy, id lookups) is masked wherever a target echoes it.
  for (const url of profileUrls(profile, baseUrl, tokenUrl)) secrets.add(passwordOf(url));
  return secrets;
}

/** The run's HTTP client: only to the target's origins, with the profile's limits and the run's stop. */
export function httpClientFor(profile: Profile, baseUrl: string, tokenUrl: string, halt: AbortSignal): HttpClient {
  return new HttpClient({
    // Only where the user pointed the run: a link the target hands over cannot send the token anywhere else.
    origins: originsOf(baseUrl, tokenUrl),
    timeoutMs: profile.http.timeoutMs,
    maxResponseBytes: profile.http.maxResponseBytes,
    retries: profile.http.retries,
    ...(profile.http.rateLimit !== undefined ? { rateLimit: profile.http.rateLimit } : {}),
    throttle: { maxWaitMs: profile.http.maxWaitMs, maxTotalWaitMs: profile.http.maxTotalWaitMs },
    endpointOf: (method, url) => {
      const endpoint = endpointOf(method, url, baseUrl, tokenUrl);
      return endpoint === undefined ? undefined : String(endpoint);
    },
    halt,
    insecure: profile.http.insecure,
    ...(profile.http.ca ? { caFile: profile.http.ca } : {}),
    ...(profile.http.proxy ? { proxy: profile.http.proxy } : {}),
  });
}

/** The URLs a profile names, each of which may carry userinfo. */
function profileUrls(profile: Profile, baseUrl: string, tokenUrl: string): string[] {
  const sources = [profile.atsJobOfferIdSource, ...Object.values(profile.idSources ?? {})];
  const lookups = sources.flatMap((s) => (s && 'url' in s && typeof s.url === 'string' ? [s.url] : []));
  return [baseUrl, tokenUrl, ...(profile.http.proxy ? [profile.http.proxy] : []), ...lookups];
}

/** The password of a URL's userinfo (percent-decoded too: the matcher reads both), or undefined. */
function passwordOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

/** scheme://host:port of a URL, or '' when it does not parse. */
function originOrNothing(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

function originsOf(...urls: string[]): string[] {
  return urls.map((url) => {
    try {
      return new URL(url).origin;
    } catch {
      throw new UsageError(`${url} is not a URL: give an absolute http(s) URL`, 'RDX_ERR_CONFIG');
    }
  });
}

/** A token that has expired: the profile's, else one the token provider waits out. */
export async function expiredToken(
  profile: Profile, tokens: TokenProvider, secrets: Secrets, throttled?: ThrottledAnswer[],
): Promise<string | { unavailable: string }> {
  if (!profile.fixtures.expiredToken) return tokens.expiredToken(throttled);
  secrets.add(profile.fixtures.expiredToken);
  return profile.fixtures.expiredToken;
}

/**
 * The run's first token. Where nothing answered, or the credentials were refused, or nothing answers at that URL as a
 * token endpoint, there is nothing to judge: exit 3, saying which. A token endpoint that answered without a usable
 * token is the implementation's failure: the run goes on, its token cases judge the answer, the cases that need a
 * token are not judged, and the report is written. Stopped first: every case is reported as not run.
 */
export async function firstToken(tokens: TokenProvider, halt: AbortSignal, secrets: Secrets): Promise<void> {
  try {
    await tokens.token();
  } catch (error) {
    if (halt.aborted) return;
    const failure = error instanceof TokenError ? error : new TokenError(String(error));
    const message = secrets.scrub(failure.message);
    switch (tokenFailureKind(failure.exchange)) {
      case 'no-answer': throw new UnreachableError(`cannot reach the target: ${message}`, 'RDX_ERR_UNREACHABLE');
      case 'refused': throw new UnreachableError(`the target refused the credentials: ${message}`, 'RDX_ERR_CREDENTIALS_REFUSED');
      case 'not-here': throw new UnreachableError(`no token endpoint answers there: ${message}`, 'RDX_ERR_NO_TOKEN_ENDPOINT');
      case 'answered': tokens.giveUp(new TokenError(`the token endpoint answered without a usable token (judged: see the auth/token cases): ${message}`, failure.exchange));
    }
  }
}
