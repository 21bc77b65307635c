// One linear scan of a JSON text, strings skipped, that says how deep it nests and about what it takes once parsed,
// without parsing it. The HTTP client refuses bodies too deep to walk, the engine budgets what it keeps by weight,
// and a report read from disk is refused when either is too large: the same scan for all three.

export interface JsonScan {
  depth: number;
  weight: number;
}

/**
 * What a JSON text takes once parsed, and how deep it nests, in one scan without parsing it: V8 gives an object
 * or an array about 64 bytes, each value or member 16 more, a string up to twice its length. 20,000 empty
 * objects (60 KB of text) weigh 1.7 MB here and take 1.3 MB parsed.
 */
export function jsonScan(text: string): JsonScan {
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  let members = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string is skipped with indexOf (native, so a list page of long strings costs little, under coverage too).
      i = stringEnd(text, i);
      if (i < 0) break;
    } else if (c === 0x7b || c === 0x5b) {
      containers++;
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c || c === 0x3a) members++;
  }
  return { depth: deepest, weight: 2 * text.length + 64 * containers + 16 * members };
}

/** The index of the quote that ends the string opened at `open`, or -1 when it never ends. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close > 0) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return -1;
}

/** The largest integer a double holds exactly, as a BigInt. */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** 2^53 - 1 has 16 digits: a text without a run of 16 has no integer beyond it. */
const LONG_DIGITS = /\d{16}/;

/**
 * The integer literals of a JSON text, outside its strings, beyond ±(2^53 - 1): JSON.parse reads each as the nearest
 * double, so two of them can read the same (RFC 8259 §6: only integers within that range are interoperable). At most
 * `limit` of them, as written; most texts are ruled out by one native search.
 */
export function unsafeIntegers(text: string, limit = 3): string[] {
  if (!LONG_DIGITS.test(text)) return [];
  const found: string[] = [];
  for (let i = 0; i < text.length && found.length < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i < 0) break;
      continue;
    }
    if (c !== 0x2d && !isDigit(c)) continue;
    let end = c === 0x2d ? i + 1 : i;
    while (isDigit(text.charCodeAt(end))) end++;
    const next = text.charCodeAt(end);
    // A fraction or an exponent makes it no integer literal: such a number was never meant to be exact.
    const integer = next !== 0x2e && next !== 0x65 && next !== 0x45;
    if (integer && end - i >= 16) {
      const value = BigInt(text.slice(i, end));
      if (value > MAX_SAFE || value < -MAX_SAFE) found.push(text.slice(i, end));
    }
    while (end < text.length && isNumberPart(text.charCodeAt(end))) end++;
    i = end - 1;
  }
  return found;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** Digits, '.', 'e', 'E', '+' and '-': what the rest of a number is made of. */
const isNumberPart = (c: number): boolean => isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

const scans = new WeakMap<object, { body: string; scan: JsonScan }>();

/**
 * The scan of an answer's body, made once per answer: the HTTP client, a walk's page budget and the report's budget
 * all ask for it, and on a target of endless 1 MiB pages scanning each three times was half the run's CPU.
 */
export function bodyScan(response: { body: string }): JsonScan {
  const known = scans.get(response);
  // The body it was made of, compared too: an answer is never rewritten in place, but a scan must not outlive its text.
  if (known?.body === response.body) return known.scan;
  const scan = jsonScan(response.body);
  scans.set(response, { body: response.body, scan });
  return scan;
}

/** What an answer takes in memory as the run keeps it: its parsed body's weight, or its text's (2 bytes a character). */
export function answerWeight(response: { body: string; json?: unknown }): number {
  return response.json === undefined ? 2 * response.body.length : bodyScan(response).weight;
}
