// Credentials that nearly match: a client secret or id off by case, whitespace or a character, and a bearer token
// off the same ways. The token endpoint must issue no token for them (AUTH.CREDENTIALS_VERIFIED) and a protected
// endpoint must refuse the token (AUTH.BEARER_REQUIRED); the run's own token, fetched with the real credentials,
// is the control that makes each refusal mean something.
import fc from 'fast-check';
import type fcTypes from 'fast-check';
import type { Session } from './session.js';

/** Ways a value can nearly match: each gives another string, or undefined where it cannot (no letter to change). */
const NEAR: Readonly<Record<string, (value: string) => string | undefined>> = {
  'case of one letter changed': (v) => {
    const i = [...v].findIndex((ch) => ch.toUpperCase() !== ch.toLowerCase());
    if (i < 0) return undefined;
    const chars = [...v];
    const ch = chars[i] as string;
    chars[i] = ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
    return chars.join('');
  },
  'all upper case': (v) => (v.toUpperCase() === v ? undefined : v.toUpperCase()),
  'a space after it': (v) => `${v} `,
  'a space before it': (v) => ` ${v}`,
  'a newline after it': (v) => `${v}\n`,
  'its last character left out': (v) => (v.length > 1 ? v.slice(0, -1) : undefined),
  'its first character left out': (v) => (v.length > 1 ? v.slice(1) : undefined),
  'a character added': (v) => `${v}x`,
  'empty': () => '',
};
const WAYS = Object.keys(NEAR);
/** HTTP strips whitespace around a header value and lets spaces repeat after "Bearer" (RFC 6750 §2.1): not a near miss there. */
const HEADER_WAYS = WAYS.filter((w) => !/space|newline/.test(w));
const waysFor = (target: Target): string[] => (target === 'bearer token' ? HEADER_WAYS : WAYS);

/** What a command changes: the secret or the id of a token request, or the bearer token of a request. */
type Target = 'client_secret' | 'client_id' | 'bearer token';

export class NearMiss implements fcTypes.AsyncCommand<Session, Session> {
  constructor(readonly target: Target, readonly way: number) {}
  toString(): string {
    const ways = waysFor(this.target);
    return `${this.target} with ${ways[this.way % ways.length]}`;
  }
  check(s: Readonly<Session>): boolean {
    return s.live;
  }
  async run(_model: Session, s: Session): Promise<void> {
    s.at++;
    const ways = waysFor(this.target);
    const way = ways[this.way % ways.length] as string;
    const { credentials, secrets, tokens, profile } = s.run.services;
    const real = this.target === 'client_id' ? credentials.clientId : this.target === 'client_secret' ? credentials.clientSecret : await tokens.token(s.run.throttledAnswers);
    const near = (NEAR[way] as (v: string) => string | undefined)(real);
    if (near === undefined || near === real) return;
    // Nearly the secret is still a secret: masked wherever it would be recorded.
    if (this.target !== 'client_id') secrets.add(near);
    if (this.target === 'bearer token') {
      await s.send({ name: `read with the token, ${way}`, operation: 'listJobOffers', query: { reference: s.unique('reference') }, auth: 'none',
        headers: { authorization: `Bearer ${near}` }, expect: { checks: [{ id: 'refused', with: { clause: 'AUTH.BEARER_REQUIRED' } }] } });
    } else {
      const grant: Record<string, string> = profile.declared['grantType'] === 'omit' ? {} : { grant_type: String(profile.declared['grantType'] ?? 'client_credentials') };
      const body: Record<string, string> = { client_id: this.target === 'client_id' ? near : '${credentials.clientId}', client_secret: this.target === 'client_secret' ? near : '${credentials.clientSecret}', ...grant };
      await s.send({ name: `token with the ${this.target}, ${way}`, operation: 'requestToken', auth: 'none', body: literalOf(body, this.target),
        expect: { checks: [{ id: 'refused', with: { clause: 'AUTH.CREDENTIALS_VERIFIED' } }] } });
    }
    if (s.failed()) throw new Error(`the ${this.target} with ${way} was accepted`);
  }
}

/** The changed field sent as written; the other stays a template of the run's credentials (masked in the report). */
function literalOf(body: Record<string, string>, target: Target): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, k === target && v.includes('${') ? { $literal: v } : v]));
}

export function nearMissCommands(): fcTypes.Arbitrary<NearMiss>[] {
  return [fc.tuple(fc.constantFrom<Target>('client_secret', 'client_id', 'bearer token'), fc.nat({ max: WAYS.length - 1 })).map(([t, w]) => new NearMiss(t, w))];
}
