// Secrets (the client secret, every token obtained) never reach a report, a log line or a curl line: not raw, not
// JSON-escaped (`\/`, `\u00dc`), not percent- or form-encoded. One matcher finds every secret in one pass over a
// text however many secrets the run holds, so a target that makes the run collect many cannot make masking slow.
import type { Exchange } from '../core/results.js';

export const MASK = '***';

/**
 * The most secrets a run keeps. Far above a real run (the client secret, its Basic form, a token per refresh and
 * one per token case); the token provider refuses long before (MAX_TOKENS in auth.ts), so reaching it is a bug of the
 * harness, and adding one more throws rather than leave a secret unmasked.
 */
export const MAX_SECRETS = 4_096;

/** Very short values would mask innocent text everywhere; a real secret is never that short. */
const MIN_LENGTH = 4;

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

  add(value: string | undefined): void {
    if (!value || value.length < MIN_LENGTH || this.values.has(value)) return;
    if (this.values.size >= MAX_SECRETS) throw new Error(`more than ${MAX_SECRETS} secrets to mask; refusing to record anything unmasked`);
    this.values.add(value);
    this.pending.push(value);
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
    for (let last = this.levels.at(-1); last && last.secrets.length <= batch.length; last = this.levels.at(-1)) {
      batch = [...(this.levels.pop() as Matcher).secrets, ...batch];
    }
    this.levels.push(new Matcher(batch));
  }

  /** Never mask inside this text (an origin the user named): a token equal to the host must not rename the target. */
  protect(text: string): void {
    if (text) this.protectedTexts.add(text);
  }

  /** The text with every secret masked, in any of the forms it can take; the same string when none is in it. */
  scrub(text: string): string {
    if (this.values.size === 0 || text.length < MIN_LENGTH) return text;
    if (this.pending.length) this.flush();
    const spans: Span[] = [];
    for (const matcher of this.levels) matcher.find(text, spans);
    if (spans.length === 0) return text;
    return replaceSpans(text, withoutProtected(merge(spans), text, this.protectedTexts));
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
   */
  redact(exchange: Exchange, keep: { json?: boolean; cut?: number } = {}): Exchange {
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
      const body = keep.cut === undefined ? this.scrub(rest.body) : this.scrubHead(rest.body, keep.cut);
      copy.response = { ...rest, headers: this.scrubHeaders(rest.headers), body };
      if (json !== undefined && keep.json !== false && keep.cut === undefined) copy.response.json = this.scrubValue(json);
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
    // A secret starting before the limit ends within this margin, in whatever form (9 characters a unit at most).
    const longest = Math.max(0, ...this.levels.map((m) => m.longest));
    const head = text.slice(0, limit + 9 * longest);
    const spans: Span[] = [];
    for (const matcher of this.levels) matcher.find(head, spans);
    const kept = withoutProtected(merge(spans), head, this.protectedTexts);
    // Cut at the limit, or before a secret that straddles it; a copy, so the whole text is not kept alive by a slice.
    const straddling = kept.find(([s, e]) => s < limit && e > limit);
    const cut = straddling ? straddling[0] : limit;
    return Buffer.from(replaceSpans(head.slice(0, cut), kept.filter(([, e]) => e <= cut)), 'utf8').toString('utf8');
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

/** The URL without `user:pass@`; text that does not parse as a URL is returned as it is. */
export function stripUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

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

type Span = [start: number, end: number];

/** Drops the matches that lie wholly inside a protected text (the target's origin). */
function withoutProtected(spans: Span[], text: string, protectedTexts: ReadonlySet<string>): Span[] {
  if (protectedTexts.size === 0) return spans;
  const guarded: Span[] = [];
  for (const p of protectedTexts) {
    for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) guarded.push([at, at + p.length]);
  }
  if (guarded.length === 0) return spans;
  return spans.filter(([s, e]) => !guarded.some(([gs, ge]) => s >= gs && e <= ge));
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

/** '+' is a space in a form: both read as one unit, in secrets and in text alike. */
const canonical = (unit: number): number => (unit === 0x2b ? 0x20 : unit);

/**
 * Aho–Corasick over UTF-16 code units, run twice over a text: over its raw units, and over the units a JSON or URL
 * reader would decode it to (`\uXXXX`, `\/`, `\"`, `%XX` UTF-8 sequences), each decoded unit remembering the raw
 * text it came from. A match in either becomes a span of the raw text. Linear in the text, whatever the secrets.
 */
class Matcher {
  /** A state's first transition (most states of a trie of random tokens have one): its unit (-1: none) and target. */
  private readonly firstUnit: Int32Array;
  private readonly firstTo: Int32Array;
  /** Its other transitions, keyed state * 0x10000 + unit. */
  private readonly more = new Map<number, number>();
  private readonly fail: Int32Array;
  /** Length (in units) of the longest secret ending at a state, through its failure links; 0 for none. */
  private readonly out: Int32Array;
  readonly longest: number;

  constructor(readonly secrets: readonly string[]) {
    let states = 1;
    for (const secret of secrets) states += secret.length;
    const parent = new Int32Array(states);
    const via = new Int32Array(states);
    const depth = new Int32Array(states);
    this.out = new Int32Array(states);
    this.fail = new Int32Array(states);
    this.firstUnit = new Int32Array(states).fill(-1);
    this.firstTo = new Int32Array(states);
    let used = 1;
    let longest = 0;
    for (const secret of secrets) {
      let state = 0;
      for (let i = 0; i < secret.length; i++) {
        const unit = canonical(secret.charCodeAt(i));
        let to = this.goto(state, unit);
        if (to < 0) {
          to = used++;
          parent[to] = state;
          via[to] = unit;
          depth[to] = i + 1;
          if (this.firstUnit[state] === -1) {
            this.firstUnit[state] = unit;
            this.firstTo[state] = to;
          } else this.more.set(state * 0x10000 + unit, to);
        }
        state = to;
      }
      this.out[state] = Math.max(this.out[state] as number, secret.length);
      longest = Math.max(longest, secret.length);
    }
    this.longest = longest;
    // Failure links in order of depth (a counting sort of the states), so a state's parent is always done first.
    const byDepth = Array.from({ length: longest + 1 }, (): number[] => []);
    for (let s = 1; s < used; s++) (byDepth[depth[s] as number] as number[]).push(s);
    for (let d = 2; d <= longest; d++) {
      for (const s of byDepth[d] as number[]) {
        const unit = via[s] as number;
        let f = this.fail[parent[s] as number] as number;
        while (f !== 0 && this.goto(f, unit) < 0) f = this.fail[f] as number;
        const target = Math.max(0, this.goto(f, unit));
        this.fail[s] = target;
        this.out[s] = Math.max(this.out[s] as number, this.out[target] as number);
      }
    }
  }

  /** The transition of (state, unit), or -1. */
  private goto(state: number, unit: number): number {
    if (this.firstUnit[state] === unit) return this.firstTo[state] as number;
    if (this.firstUnit[state] === -1) return -1;
    return this.more.get(state * 0x10000 + unit) ?? -1;
  }

  private step(state: number, unit: number): number {
    let s = state;
    for (;;) {
      const to = this.goto(s, unit);
      if (to >= 0) return to;
      if (s === 0) return 0;
      s = this.fail[s] as number;
    }
  }

  /** The raw spans holding a secret (unsorted, may overlap). */
  find(text: string, spans: Span[]): void {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, canonical(text.charCodeAt(i)));
      const len = this.out[state] as number;
      if (len > 0) spans.push([i + 1 - len, i + 1]);
    }
    // A secret found only once decoded holds an escape, and a decoded unit stands for at most 9 raw characters
    // (%XX%XX%XX): only the text around each escape needs decoding.
    const reach = 9 * this.longest;
    let window: Span | undefined;
    // The next backslash and the next percent sign, each searched for again only once passed (linear).
    let b = text.indexOf('\\');
    let p = text.indexOf('%');
    while (b >= 0 || p >= 0) {
      const at = b < 0 ? p : p < 0 ? b : Math.min(b, p);
      if (at === b) b = text.indexOf('\\', b + 1);
      if (at === p) p = text.indexOf('%', p + 1);
      if (window && at - reach <= window[1]) window[1] = Math.min(text.length, at + reach);
      else {
        if (window) this.findDecoded(text, window, spans);
        window = [Math.max(0, at - reach), Math.min(text.length, at + reach)];
      }
    }
    if (window) this.findDecoded(text, window, spans);
  }

  /** Matches in the text of `window` as a JSON or URL reader would decode it, as raw spans. */
  private findDecoded(text: string, [from, to]: Span, spans: Span[]): void {
    // Where each of the last `longest` decoded units began in the raw text (a ring).
    const size = this.longest + 1;
    const starts = new Int32Array(size);
    let count = 0;
    let state = 0;
    for (let i = from; i < to;) {
      const c = text.charCodeAt(i);
      const d = c === 0x5c || c === 0x25 ? decodeAt(text, i) : undefined;
      const end = d ? d.end : i + 1;
      for (const unit of d ? d.units : [c]) {
        starts[count % size] = i;
        count++;
        state = this.step(state, canonical(unit));
        const len = this.out[state] as number;
        if (len > 0) spans.push([starts[(count - len) % size] as number, end]);
      }
      i = end;
    }
  }
}

function merge(spans: Span[]): Span[] {
  if (spans.length <= 1) return spans;
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Span[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([span[0], span[1]]);
  }
  return out;
}

const JSON_ESCAPES: Record<string, number> = { '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

const hexAt = (text: string, at: number, digits: number): number => {
  const s = text.slice(at, at + digits);
  return s.length === digits && /^[0-9a-fA-F]+$/.test(s) ? parseInt(s, 16) : -1;
};

/** The units one escape (or one plain unit) at `i` decodes to, and where it ends in the raw text. */
function decodeAt(text: string, i: number): { units: number[]; end: number } {
  const c = text.charCodeAt(i);
  if (c === 0x5c) {
    const e = text[i + 1] ?? '';
    if (e === 'u') {
      const v = hexAt(text, i + 2, 4);
      if (v >= 0) return { units: [v], end: i + 6 };
    } else if (e in JSON_ESCAPES) return { units: [JSON_ESCAPES[e] as number], end: i + 2 };
  } else if (c === 0x25) {
    const first = hexAt(text, i + 1, 2);
    if (first >= 0 && first < 0x80) return { units: [first], end: i + 3 };
    const more = first >= 0xf0 && first < 0xf8 ? 3 : first >= 0xe0 ? 2 : first >= 0xc0 ? 1 : -1;
    if (first >= 0 && more > 0 && first < 0xf8) {
      let cp = first & (0x3f >> more);
      let at = i + 3;
      for (let k = 0; k < more; k++, at += 3) {
        const b = text.charCodeAt(at) === 0x25 ? hexAt(text, at + 1, 2) : -1;
        if (b < 0x80 || b >= 0xc0) return { units: [c], end: i + 1 };
        cp = (cp << 6) | (b & 0x3f);
      }
      const units = cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp];
      return { units, end: at };
    }
  }
  return { units: [c], end: i + 1 };
}
