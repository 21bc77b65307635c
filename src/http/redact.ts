// Secrets (the client secret, every token obtained) never reach a report, a log line or a curl line: not raw, not
// JSON-escaped (`\/`, `\u00dc`), not percent- or form-encoded, not as HTML character references, not in base64,
// base64url or hex. One matcher finds every secret in one pass over a text however many secrets the run holds, so a
// target that makes the run collect many cannot make masking slow.
import type { Exchange } from '../core/results.js';
import { Matcher, MAX_ESCAPE, merge, type Span } from './secret-matcher.js';

export const MASK = '***';

/**
 * The most secrets a run keeps. Far above a real run (the client secret, its Basic form, a token per refresh and
 * one per token case); the token provider refuses long before (MAX_TOKENS in auth.ts), so reaching it is a bug of the
 * harness, and adding one more throws rather than leave a secret unmasked.
 */
export const MAX_SECRETS = 4_096;

/**
 * Up to this many UTF-16 units of secrets (all their forms), every secret is in one matcher, rebuilt when one is
 * added; beyond it, matchers in levels (Secrets.levels), so that a target that makes the run collect thousands of
 * tokens cannot make each addition rebuild them all.
 */
const ONE_MATCHER_UNITS = 64 * 1024;

/**
 * scrub() remembers its answer for texts up to this long (header names and values, most paths), as many as
 * SCRUBBED_TEXTS, until the secrets or protected texts change: a run scrubs the same 1,500 of them some 20,000 times.
 */
const SCRUBBED_LENGTH = 256;
const SCRUBBED_TEXTS = 4_096;

/** Very short values would mask innocent text everywhere; a real secret is never that short. */
const MIN_LENGTH = 4;
/** The shortest encoded form masked: shorter ones (of a 4-byte secret) would match innocent base64 or hex. */
const MIN_FORM_LENGTH = 6;

/**
 * The forms of a secret a text may hold beyond those the matcher decodes itself (JSON, URL and HTML escapes): hex
 * (lower and upper case), base64 and base64url, whole, and inside a larger blob at each of the three byte
 * alignments. Inside a blob only the characters that the secret's bits alone decide are masked: the one or two at
 * each edge that also hold a neighbour's bits stay (they carry at most 4 bits of the secret each).
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const base64 = bytes.toString('base64');
  const forms = [hex, hex.toUpperCase(), base64, base64.replace(/=+$/, ''), bytes.toString('base64url')];
  for (let a = 0; a < 3; a++) {
    const shifted = Buffer.concat([Buffer.alloc(a), bytes]).toString('base64');
    const core = shifted.slice(Math.ceil((8 * a) / 6), Math.floor((8 * (a + bytes.length)) / 6));
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(forms)].filter((f) => f.length >= MIN_FORM_LENGTH && f !== secret);
}

/**
 * `//user:pass@` of a URL: RFC 3986 userinfo characters only, so JSON and HTML around a URL are left whole, and no
 * match runs past a `/`, so finding them stays linear.
 */
const USERINFO = /\/\/[A-Za-z0-9\-._~%!$&'()*+,;=:]*@/g;

/** USERINFO without its global flag, only to test a text for one. */
const HAS_USERINFO = new RegExp(USERINFO.source);

/**
 * Whether no string of JSON.parse(text) could be masked, given the spans of the whole text: none found, no backslash
 * (so every string, keys too, is a verbatim part of the text, and the text's decoded reading holds each string's; a
 * match in a string is a match in the text) and no userinfo (whose characters never include a quote).
 */
function nothingToMaskInParsed(text: string, spans: Span[]): boolean {
  return spans.length === 0 && !text.includes('\\') && !(text.includes('@') && HAS_USERINFO.test(text));
}

/** The text with the userinfo of every URL in it dropped (`http://user:pass@host` → `http://host`). */
export function stripUserinfoInText(text: string): string {
  return text.includes('@') ? text.replace(USERINFO, '//') : text;
}

/** Secrets the run has seen; anything recorded is scrubbed of every one of them. */
export class Secrets {
  private readonly values = new Set<string>();
  /** Text never masked: the target's identity (scheme://host:port), which a token may happen to equal. */
  private readonly protectedTexts = new Set<string>();
  /**
   * Matchers over all the secrets, in levels of falling size (like a binary counter), so a run that adds secrets one
   * by one rebuilds each secret into a matcher only log(n) times; `pending` are those added since the last scrub.
   */
  private levels: Matcher[] = [];
  private pending: string[] = [];
  /** Short texts as scrub() left them, for the secrets and protected texts as they are now (SCRUBBED_LENGTH). */
  private readonly scrubbed = new Map<string, string>();

  add(value: string | undefined): void {
    if (!value || value.length < MIN_LENGTH || this.values.has(value)) return;
    if (this.values.size >= MAX_SECRETS) throw new Error(`more than ${MAX_SECRETS} secrets to mask; refusing to record anything unmasked`);
    this.values.add(value);
    this.pending.push(value, ...encodedForms(value));
    this.scrubbed.clear();
  }

  has(value: string): boolean {
    return this.values.has(value);
  }

  get size(): number {
    return this.values.size;
  }

  private flush(): void {
    let batch = this.pending;
    this.pending = [];
    // While they are few (a real run: the client secret and a token or two, some 70 forms), all the secrets are one
    // matcher, so a text is read once, not once a level; rebuilding that is cheaper than a second pass over a body.
    const units = (list: readonly string[]): number => list.reduce((n, s) => n + s.length, 0);
    if (units(batch) + this.levels.reduce((n, m) => n + units(m.secrets), 0) <= ONE_MATCHER_UNITS) {
      this.levels = [new Matcher([...this.levels.flatMap((m) => m.secrets), ...batch])];
      return;
    }
    for (let last = this.levels.at(-1); last && last.secrets.length <= batch.length; last = this.levels.at(-1)) {
      batch = [...(this.levels.pop() as Matcher).secrets, ...batch];
    }
    this.levels.push(new Matcher(batch));
  }

  /** Never mask inside this text (an origin the user named): a token equal to the host must not rename the target. */
  protect(text: string): void {
    if (text) this.protectedTexts.add(text);
    this.scrubbed.clear();
  }

  /**
   * The text with every secret masked, in any of the forms it can take, and no URL's userinfo; the same string when
   * there is neither.
   */
  scrub(text: string): string {
    if (text.length > SCRUBBED_LENGTH) return this.masked(text, this.spansOf(text));
    let done = this.scrubbed.get(text);
    if (done === undefined) {
      done = this.masked(text, this.spansOf(text));
      if (this.scrubbed.size >= SCRUBBED_TEXTS) this.scrubbed.clear();
      this.scrubbed.set(text, done);
    }
    return done;
  }

  /** Where a secret stands in the text, in any form (unsorted, may overlap; protected texts not yet left out). */
  private spansOf(text: string): Span[] {
    const spans: Span[] = [];
    if (this.values.size === 0 || text.length < MIN_LENGTH) return spans;
    if (this.pending.length) this.flush();
    for (const matcher of this.levels) matcher.find(text, spans);
    return spans;
  }

  /** The text with those spans masked (but in protected texts) and no URL's userinfo. */
  private masked(text: string, spans: Span[]): string {
    if (spans.length === 0) return stripUserinfoInText(text);
    return stripUserinfoInText(replaceSpans(text, withoutProtected(merge(spans), text, this.protectedTexts)));
  }

  /** A URL as a report keeps it: userinfo dropped, secrets masked after the origin (path, query), never in it. */
  scrubUrl(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return this.scrub(url);
    }
    const bare = stripUserinfo(url);
    // URL serialises the origin first; the rest is what follows it in the serialised form.
    const origin = parsed.origin === 'null' ? '' : parsed.origin;
    if (!origin || !bare.startsWith(origin)) return this.scrub(bare);
    return origin + this.scrub(bare.slice(origin.length));
  }

  /**
   * A copy of the exchange with secrets masked in URL, headers and bodies. `keep` says what of the response body
   * the copy holds: the parsed body too (the default), the text only, or the text's first `cut` characters.
   * `parsedFromBody`: the parsed body is JSON.parse of the body's text (as the HTTP client records it), so when the
   * text holds nothing to mask and no escape, neither does any string of it (nothingToMaskInParsed), and the parsed
   * body is kept as it is, without a second pass over every string of it.
   */
  redact(exchange: Exchange, keep: { json?: boolean; cut?: number; parsedFromBody?: boolean } = {}): Exchange {
    const copy: Exchange = {
      ...exchange,
      request: {
        ...exchange.request,
        url: this.scrubUrl(exchange.request.url),
        headers: this.scrubHeaders(exchange.request.headers),
        ...(exchange.request.body !== undefined ? { body: this.scrub(exchange.request.body) } : {}),
      },
    };
    if (exchange.response) {
      const { json, ...rest } = exchange.response;
      const spans = keep.cut === undefined ? this.spansOf(rest.body) : [];
      const body = keep.cut === undefined ? this.masked(rest.body, spans) : this.scrubHead(rest.body, keep.cut);
      copy.response = { ...rest, headers: this.scrubHeaders(rest.headers), body };
      if (json !== undefined && keep.json !== false && keep.cut === undefined) {
        copy.response.json = keep.parsedFromBody && nothingToMaskInParsed(rest.body, spans) ? json : this.scrubValue(json);
      }
    }
    return copy;
  }

  /**
   * The first `limit` characters of the text (or fewer), masked, with no part of a secret left at the cut; only
   * the head is read, so a huge body that is cut anyway costs no more than its head.
   */
  scrubHead(text: string, limit: number): string {
    if (text.length <= limit) return this.scrub(text);
    if (this.pending.length) this.flush();
    // A secret starting before the limit ends within this margin, in whatever form (MAX_ESCAPE characters a unit).
    const longest = Math.max(0, ...this.levels.map((m) => m.longest));
    const head = text.slice(0, limit + MAX_ESCAPE * longest);
    const spans: Span[] = [];
    for (const matcher of this.levels) matcher.find(head, spans);
    const kept = withoutProtected(merge(spans), head, this.protectedTexts);
    // Cut at the limit, or before a secret that straddles it; a copy, so the whole text is not kept alive by a slice.
    const straddling = kept.find(([s, e]) => s < limit && e > limit);
    const cut = straddling ? straddling[0] : limit;
    return Buffer.from(stripUserinfoInText(replaceSpans(head.slice(0, cut), kept.filter(([, e]) => e <= cut))), 'utf8').toString('utf8');
  }

  /** The exchange without its bodies, the rest masked: what the report keeps of one recorded as the run stopped. */
  withoutBodies(exchange: Exchange, note: string): Exchange {
    const { body: _sent, ...request } = exchange.request;
    const copy: Exchange = { ...exchange, request: { ...request, url: this.scrubUrl(request.url), headers: this.scrubHeaders(request.headers) } };
    if (exchange.response) {
      const { json: _json, body: _body, ...rest } = exchange.response;
      copy.response = { ...rest, headers: this.scrubHeaders(rest.headers), body: '', bodyProblem: rest.bodyProblem ? `${rest.bodyProblem}; ${note}` : note };
    }
    return copy;
  }

  /** A JSON value with every string (keys too) masked; parts without a secret are shared, not copied. */
  scrubValue(value: unknown): unknown {
    if (this.values.size === 0) return value;
    return scrubJson(value, this);
  }

  private scrubHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[this.scrub(k)] = this.scrub(v);
    return out;
  }
}

/**
 * The URL without `user:pass@`. Text that does not parse as an http(s) URL (`user:pass@host`, a scheme mistyped)
 * loses whatever stands before an `@` where its authority would be, so a message quoting a wrong URL quotes no
 * password either.
 */
export function stripUserinfo(url: string): string {
  // Userinfo is only ever read before an '@' (WHATWG URL), and the fallback needs one too: nothing to strip.
  if (!url.includes('@')) return url;
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return withoutLeadingUserinfo(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return withoutLeadingUserinfo(url);
  }
}

const withoutLeadingUserinfo = (text: string): string => text.replace(/^((?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/)?[^/?#\s]*@/, '$1');

function scrubJson(value: unknown, secrets: Secrets): unknown {
  if (typeof value === 'string') return secrets.scrub(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i] as unknown;
      const s = scrubJson(v, secrets);
      if (s !== v) (copy ??= value.slice())[i] = s;
    }
    return copy ?? value;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    let changed = false;
    const scrubbed = entries.map(([k, v]): [string, unknown] => {
      const sk = secrets.scrub(k);
      const sv = scrubJson(v, secrets);
      if (sk !== k || sv !== v) changed = true;
      return [sk, sv];
    });
    return changed ? Object.fromEntries(scrubbed) : value;
  }
  return value;
}

/** Drops the matches that lie wholly inside a protected text (the target's origin). */
function withoutProtected(spans: Span[], text: string, protectedTexts: ReadonlySet<string>): Span[] {
  if (protectedTexts.size === 0) return spans;
  const guarded: Span[] = [];
  for (const p of protectedTexts) {
    for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) guarded.push([at, at + p.length]);
  }
  if (guarded.length === 0) return spans;
  // Both sorted by start: one sweep, keeping the guard reaching furthest among those that start at or before a span
  // (a text that repeats the origin and a secret many times stays linear).
  guarded.sort((a, b) => a[0] - b[0]);
  let g = 0;
  let reach = -1;
  return spans.filter(([s, e]) => {
    for (; g < guarded.length && (guarded[g] as Span)[0] <= s; g++) reach = Math.max(reach, (guarded[g] as Span)[1]);
    return e > reach;
  });
}

/** The text with each span (sorted, not overlapping) replaced by the mask. */
function replaceSpans(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    out += text.slice(at, s) + MASK;
    at = e;
  }
  return out + text.slice(at);
}

