// The matcher behind Secrets (redact.ts): every secret found in one pass over a text, raw and as a JSON, URL or HTML
// reader would decode it. Split from redact.ts for size only; nothing else uses it.

export type Span = [start: number, end: number];

/** '+' is a space in a form: both read as one unit, in secrets and in text alike. */
const canonical = (unit: number): number => (unit === 0x2b ? 0x20 : unit);

/**
 * The most raw characters one decoded unit stands for: `&#x` and 12 digits (leading zeros included) and `;`. A longer
 * numeric reference is not decoded (HTML allows any number of leading zeros; no real page writes them).
 */
export const MAX_ESCAPE = 16;
const MAX_REF_DIGITS = 12;
/** The most transitions a matcher caches (Matcher.cache: 4 bytes each); a real run's 72 forms need some 280,000. */
const CACHE_ENTRIES = 1 << 20;

/**
 * Aho–Corasick over UTF-16 code units, run twice over a text: over its raw units, and over the units a JSON, URL or
 * HTML reader would decode it to (`\uXXXX`, `\/`, `\"`, `%XX` UTF-8 sequences, `&#NN;`, `&#xHH;`, `&amp;`), each
 * decoded unit remembering the raw text it came from. A match in either becomes a span of the raw text. Linear in
 * the text, whatever the secrets.
 */
export class Matcher {
  /**
   * The root's transitions, by unit (0: none): most units of a text leave the root where they found it, so a text's
   * units are mostly one array read each.
   */
  private readonly root = new Int32Array(0x10000);
  /** A state's first transition (most states of a trie of random tokens have one): its unit (-1: none) and target. */
  private readonly firstUnit: Int32Array;
  private readonly firstTo: Int32Array;
  /** Its other transitions, keyed state * 0x10000 + unit; `branches` marks the states that have any. */
  private readonly more = new Map<number, number>();
  private readonly branches: Uint8Array;
  private readonly fail: Int32Array;
  /** Length (in units) of the longest secret ending at a state, through its failure links; 0 for none. */
  private readonly out: Int32Array;
  readonly longest: number;
  /**
   * The transitions followed so far, failure links included, by state and class of unit (a unit in no secret is class
   * 0, and leads to the root from anywhere): a unit of a text costs one array read once its transition is known,
   * where walking the failure links cost a Map lookup a link (prose whose letters start partial matches everywhere
   * read five times slower). -1: not followed yet. Undefined when it would pass CACHE_ENTRIES.
   */
  private readonly classOf = new Uint16Array(0x10000);
  private readonly width: number;
  private readonly cache: Int32Array | undefined;

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
    this.branches = new Uint8Array(states);
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
          if (state === 0) this.root[unit] = to;
          else if (this.firstUnit[state] === -1) {
            this.firstUnit[state] = unit;
            this.firstTo[state] = to;
          } else {
            this.more.set(state * 0x10000 + unit, to);
            this.branches[state] = 1;
          }
        }
        state = to;
      }
      this.out[state] = Math.max(this.out[state] as number, secret.length);
      longest = Math.max(longest, secret.length);
    }
    this.longest = longest;
    let classes = 1;
    for (const secret of secrets) {
      for (let i = 0; i < secret.length; i++) {
        const unit = canonical(secret.charCodeAt(i));
        if (this.classOf[unit] === 0 && classes < 0xffff) this.classOf[unit] = classes++;
      }
    }
    this.classOf[0x2b] = this.classOf[0x20] as number;
    this.width = classes;
    this.cache = classes < 0xffff && used * classes <= CACHE_ENTRIES ? new Int32Array(used * classes).fill(-1) : undefined;
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
    if (state === 0) return (this.root[unit] as number) || -1;
    if (this.firstUnit[state] === unit) return this.firstTo[state] as number;
    // Most states of a trie of random tokens have one transition: no Map lookup for those.
    if (this.branches[state] === 0) return -1;
    return this.more.get(state * 0x10000 + unit) ?? -1;
  }

  private step(state: number, unit: number): number {
    let s = state;
    for (;;) {
      if (s === 0) return this.root[unit] as number;
      const to = this.goto(s, unit);
      if (to >= 0) return to;
      s = this.fail[s] as number;
    }
  }

  /** step() through the cache of transitions already followed. */
  private next(state: number, unit: number): number {
    const { cache } = this;
    if (!cache) return this.step(state, canonical(unit));
    const kind = this.classOf[unit] as number;
    if (kind === 0) return 0;
    const at = state * this.width + kind;
    let to = cache[at] as number;
    if (to < 0) to = cache[at] = this.step(state, canonical(unit));
    return to;
  }

  /** The raw spans holding a secret (unsorted, may overlap). */
  find(text: string, spans: Span[]): void {
    let state = 0;
    const { out, cache, classOf, width } = this;
    const { length } = text;
    for (let i = 0; i < length; i++) {
      // next(), written out: called, it read 30,000 characters of prose 10% slower (3.8-3.9 ms against 3.4-3.5, best
      // of 15), and every unit of every body recorded passes here.
      const unit = text.charCodeAt(i);
      if (cache) {
        const kind = classOf[unit] as number;
        if (kind === 0) {
          state = 0;
          continue;
        }
        const at = state * width + kind;
        const to = cache[at] as number;
        state = to >= 0 ? to : (cache[at] = this.step(state, canonical(unit)));
      } else state = this.step(state, canonical(unit));
      const len = out[state] as number;
      if (len > 0) spans.push([i + 1 - len, i + 1]);
    }
    // A secret found only once decoded holds an escape, and a decoded unit stands for at most MAX_ESCAPE raw
    // characters: only the text around each escape needs decoding.
    const reach = MAX_ESCAPE * this.longest;
    let window: Span | undefined;
    // The next backslash, percent sign and ampersand, each searched for again only once passed (linear).
    const next = [text.indexOf('\\'), text.indexOf('%'), text.indexOf('&')];
    const marks = ['\\', '%', '&'];
    for (;;) {
      let at = -1;
      for (const n of next) if (n >= 0 && (at < 0 || n < at)) at = n;
      if (at < 0) break;
      for (let k = 0; k < next.length; k++) if (next[k] === at) next[k] = text.indexOf(marks[k] as string, at + 1);
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
      const d = c === 0x5c || c === 0x25 || c === 0x26 ? decodeAt(text, i) : undefined;
      const end = d ? d.end : i + 1;
      const units = d ? d.units.length : 1;
      for (let k = 0; k < units; k++) {
        starts[count % size] = i;
        count++;
        state = this.next(state, d ? (d.units[k] as number) : c);
        const len = this.out[state] as number;
        if (len > 0) spans.push([starts[(count - len) % size] as number, end]);
      }
      i = end;
    }
  }
}

export function merge(spans: Span[]): Span[] {
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

const NAMED_REFS: Record<string, number> = { amp: 0x26, lt: 0x3c, gt: 0x3e, quot: 0x22, apos: 0x27 };
const REF = new RegExp(`&(?:#[xX]([0-9a-fA-F]{1,${MAX_REF_DIGITS}})|#([0-9]{1,${MAX_REF_DIGITS}})|(amp|lt|gt|quot|apos));?`, 'y');

/** The UTF-16 units of a code point (U+FFFD for one past U+10FFFF). */
const unitsOf = (cp: number): number[] => (cp > 0x10ffff ? [0xfffd]
  : cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp]);

/** An HTML character reference at `i` (numeric, with or without its `;` as browsers read it, or a named one). */
function decodeRef(text: string, i: number): { units: number[]; end: number } | undefined {
  REF.lastIndex = i;
  const m = REF.exec(text);
  if (!m) return undefined;
  if (m[3] !== undefined) return { units: [NAMED_REFS[m[3]] as number], end: i + m[0].length };
  return { units: unitsOf(parseInt(m[1] ?? m[2] ?? '', m[1] !== undefined ? 16 : 10)), end: i + m[0].length };
}

/** The units one escape (or one plain unit) at `i` decodes to, and where it ends in the raw text. */
function decodeAt(text: string, i: number): { units: number[]; end: number } {
  const c = text.charCodeAt(i);
  if (c === 0x26) return decodeRef(text, i) ?? { units: [c], end: i + 1 };
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
      return { units: unitsOf(cp), end: at };
    }
  }
  return { units: [c], end: i + 1 };
}
