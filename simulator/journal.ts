// The request journal behind GET /__admin/journal: the latest requests in a fixed-size ring, so a long-running
// simulator never grows with its traffic. To keep the request path fast an entry holds references (raw headers,
// bodies) and is formatted and masked when read; the token endpoint's bodies are masked before they are kept, so
// the ring never holds a client secret or an access token.
// A response is kept as the envelope it was serialized from, not as its text: the envelope is small and points at
// stored records (which are never mutated, see table.ts), while a list page's text is kilobytes that would outlive
// the young generation and make every collection copy and promote it (measured: the journal then cost a list
// request 100 µs of its 230). A request body is copied into the entry's slot of one buffer the journal allocates
// once: kept as a view of the buffer node:http read it into, each entry held a socket read's memory outside the
// heap, which the collector frees only in a full collection and counts towards starting one (measured under a
// 10-item POST load: one full collection in six seconds instead of two, and 10% less CPU per request). The raw
// headers follow the body in the slot, packed as bytes: kept as node:http's array, their strings outlived the young
// generation and were promoted, 700 of the 2,100 bytes a 10-item POST promoted.
import { bodyJson } from './json.js';
import type { JsonObject } from './context.js';
import type { JournalEntry } from './admin/wire.js';

export type { JournalEntry } from './admin/wire.js';

/** What the request path hands over: cheap to make, formatted only when read. */
export interface JournalRecord {
  arrivedAt: number;
  method: string;
  url: string;
  operationId: string | null;
  status: number;
  latencyMs: number;
  clientId: string | null;
  /** Names and values, as node:http gives them; once kept, a number: where they are packed in the entry's slot. */
  rawHeaders: readonly string[] | number;
  /** The bytes or the masked text; once kept, a number: that many bytes in the entry's slot (see Journal). */
  requestBody: string | Buffer | number | undefined;
  /** The text sent, or the envelope it was serialized from by bodyJson (formatted again when read). */
  responseBody: string | Buffer | Envelope | undefined;
  note?: string;
}

/** A response body as the pipeline built it; its text is bodyJson(value). */
export interface Envelope {
  readonly value: JsonObject;
}

type Body = string | Buffer | Envelope;
const textOf = (body: Body): string | Buffer => (typeof body === 'string' || Buffer.isBuffer(body) ? body : bodyJson(body.value));

export const MASK = '***';
/** Characters of a body kept in an entry. */
export const BODY_LIMIT = 16_384;

/**
 * What the journal knows beyond names: the secrets it holds by value (client secret, admin token) and whether a
 * string is an access token the simulator issued (it can tell: see TokenStore.issued). Masking uses both, so a
 * secret is masked wherever and however it appears, not only under a key the mask recognises.
 */
export interface Known {
  secrets(): readonly (string | undefined)[];
  issued(candidate: string): boolean;
}

const NOTHING_KNOWN: Known = { secrets: () => [], issued: () => false };

/** Member names whose values are credentials, compared case-insensitively after JSON and URL decoding. */
const SECRET_KEYS = new Set(['client_secret', 'access_token', 'refresh_token', 'id_token', 'password', 'client_assertion', 'x-rdx-admin-token']);
const isSecretKey = (key: string): boolean => SECRET_KEYS.has(key.trim().toLowerCase().replace(/\[[^\]]*\]$/, ''));
const KEY_ALTERNATIVES = 'client_secret|access_token|refresh_token|id_token|password|client_assertion';
// The value may be a string, an array or an object, and may be cut short by BODY_LIMIT (an unterminated value to
// the end of the text counts too).
const JSON_SECRET = new RegExp(`("(?:${KEY_ALTERNATIVES})"\\s*:\\s*)(?:"(?:[^"\\\\]|\\\\.)*(?:"|$)|\\[[^\\]]*(?:\\]|$)|\\{[^}]*(?:\\}|$)|[^,}\\]\\s]+)`, 'gi');
const FORM_SECRET = new RegExp(`((?:^|[&?;])(?:${KEY_ALTERNATIVES})(?:\\[[^\\]=&]*\\])?=)[^&#]*`, 'gi');
/** Headers whose whole value is a credential. */
const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'x-rdx-admin-token', 'x-api-key']);
const AUTHORIZATION_HEADERS = new Set(['authorization', 'proxy-authorization']);
/** Authentication schemes shown in front of a masked credential; any other first word may be the credential itself. */
const SCHEMES = new Set(['basic', 'bearer', 'digest', 'dpop', 'negotiate', 'ntlm', 'hoba', 'mutual', 'oauth', 'aws4-hmac-sha256', 'scram-sha-1', 'scram-sha-256', 'vapid']);
/** An issued token is 43 base64url characters; runs of them are candidates. */
const TOKEN_RUN = /[A-Za-z0-9_-]{43,}/g;
const TOKEN_LENGTH = 43;

/** Masks secret members of a JSON or form-encoded text by name (client_secret, access_token, …), any case. */
export function maskSecrets(text: string): string {
  if (!/secret|token|password|assertion/i.test(text)) return text;
  return text.replace(JSON_SECRET, `$1"${MASK}"`).replace(FORM_SECRET, `$1${MASK}`);
}

/** Masks the known secrets and every issued token wherever they stand in the text (raw or percent-encoded). */
function maskKnown(text: string, known: Known): string {
  let out = text;
  for (const secret of known.secrets()) {
    if (!secret || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) out = out.split(form).join(MASK);
  }
  // A token glued to other base64url characters (Bearer<token>, <token>xyz) is found at either end of its run.
  return out.replace(TOKEN_RUN, (run) => {
    if (run.length === TOKEN_LENGTH) return known.issued(run) ? MASK : run;
    const head = run.slice(0, TOKEN_LENGTH);
    const tail = run.slice(-TOKEN_LENGTH);
    if (known.issued(head)) return `${MASK}${run.slice(TOKEN_LENGTH)}`;
    if (known.issued(tail)) return `${run.slice(0, -TOKEN_LENGTH)}${MASK}`;
    return run;
  });
}

/** JSON \u escapes and URL %-escapes decoded, leniently (what does not decode stays as it is). */
function decoded(text: string): string {
  const unescaped = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return unescaped.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A parsed JSON value with credential members masked whole (arrays and objects too) and known secrets masked. */
function maskValue(value: unknown, known: Known): unknown {
  if (typeof value === 'string') return maskKnown(value, known);
  if (Array.isArray(value)) return value.map((v) => maskValue(v, known));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[maskKnown(key, known)] = isSecretKey(key) ? MASK : maskValue(v, known);
    return out;
  }
  return value;
}

/** A form (or query) text with credential fields masked, read as decoded names and values; undefined when it is no form. */
function maskForm(text: string, known: Known): string | undefined {
  if (!/^[^\s{}[\]"]*=/.test(text) || /\s/.test(text)) return undefined;
  let changed = false;
  const out = text.split('&').map((pair) => {
    const at = pair.indexOf('=');
    const name = decoded((at === -1 ? pair : pair.slice(0, at)).replace(/\+/g, ' '));
    const value = at === -1 ? undefined : decoded(pair.slice(at + 1).replace(/\+/g, ' '));
    const maskedValue = value === undefined ? undefined : isSecretKey(name) ? MASK : maskKnown(value, known);
    const maskedName = maskKnown(name, known);
    if (maskedValue === value && maskedName === name) return pair;
    changed = true;
    return `${encodeURIComponent(maskedName)}${maskedValue === undefined ? '' : `=${maskedValue === MASK ? MASK : encodeURIComponent(maskedValue)}`}`;
  });
  return changed ? out.join('&') : text;
}

/**
 * A text as the journal shows it. JSON is masked on its parsed value and a form on its decoded fields, so that
 * escapes (client\u005fsecret, client%5Fsecret) and case (Client_Secret) hide nothing; any other text (a cut or
 * malformed body) is masked as it stands and, when decoding its escapes reveals more to mask, shown decoded.
 */
export function maskText(text: string, known: Known = NOTHING_KNOWN): string {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(text);
      const masked = JSON.stringify(maskValue(value, known));
      return masked === JSON.stringify(value) ? text : masked;
    } catch {
      // Not JSON after all (cut or malformed): masked as text below.
    }
  }
  const form = maskForm(text, known);
  if (form !== undefined) return form;
  const plain = maskKnown(maskSecrets(text), known);
  const revealed = decoded(plain);
  const again = maskKnown(maskSecrets(revealed), known);
  return again === revealed ? plain : again;
}

/** A request target with its query read as a form: secret parameters masked, known secrets masked anywhere. */
export function maskUrl(url: string, known: Known = NOTHING_KNOWN): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const shownPath = maskText(path, known);
  if (q === -1) return shownPath;
  const query = url.slice(q + 1);
  return `${shownPath}?${maskForm(query, known) ?? maskText(query, known)}`;
}

/** One header value as shown: credentials masked whole, but for the scheme word of an Authorization header. */
function maskHeader(name: string, value: string, known: Known): string {
  if (AUTHORIZATION_HEADERS.has(name)) {
    const scheme = /^([A-Za-z][A-Za-z0-9._~+-]*)[ \t]+\S/.exec(value)?.[1];
    return scheme && SCHEMES.has(scheme.toLowerCase()) ? `${scheme} ${MASK}` : MASK;
  }
  if (SECRET_HEADERS.has(name)) return MASK;
  return maskText(value, known);
}

/** Header values flattened to strings; credentials masked, keeping a recognised scheme of an Authorization header. */
export function maskHeaders(headers: Record<string, string | string[] | undefined>, known: Known = NOTHING_KNOWN): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = maskHeader(name, Array.isArray(value) ? value.join(', ') : value, known);
  }
  return out;
}

function headersOf(raw: readonly string[], known: Known): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    headers[name] = headers[name] === undefined ? (raw[i + 1] as string) : `${headers[name]}, ${raw[i + 1] as string}`;
  }
  return maskHeaders(headers, known);
}

/** The text of a body, cut to BODY_LIMIT with a note of what was left out (only the kept part is decoded). */
function cutText(body: string | Buffer): string {
  if (typeof body === 'string') {
    return body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}…(${body.length - BODY_LIMIT} more characters)` : body;
  }
  return body.length > BODY_LIMIT
    ? `${body.subarray(0, BODY_LIMIT).toString('utf8')}…(${body.length - BODY_LIMIT} more bytes)`
    : body.toString('utf8');
}

/** A body as GET /__admin/journal shows it: at most BODY_LIMIT long, secrets masked. */
export function journalBody(body: Body | undefined, known: Known = NOTHING_KNOWN): string | null {
  if (body === undefined) return null;
  const text = textOf(body);
  return text.length === 0 ? null : maskText(cutText(text), known);
}

/**
 * A body as the ring keeps it: credentials masked at once; a body over BODY_LIMIT cut, as a copy, so that the
 * ring never keeps a large body alive (a slice of a string would still hold all of it).
 */
function kept<B extends Body>(body: B | undefined, sensitive: boolean, known: Known): B | string | Buffer | undefined {
  if (body === undefined) return undefined;
  if (sensitive) return journalBody(body, known) ?? undefined;
  if (!(typeof body === 'string' || Buffer.isBuffer(body))) return body;
  if (body.length === 0) return undefined;
  // A view of a larger buffer is copied, so that the ring does not keep the rest alive.
  if (Buffer.isBuffer(body) && body.length <= BODY_LIMIT) return body.buffer.byteLength > body.length ? Buffer.from(body) : body;
  if (body.length <= BODY_LIMIT) return body;
  return typeof body === 'string' ? Buffer.from(cutText(body), 'utf8') : cutText(body);
}

/** Bytes of an entry's slot: its request body (a larger one is kept as a copy of its own), then its headers. */
export const SLOT_BYTES = 4096;

/**
 * Writes strings (an entry's header names and values) into buf from `from` up to `to`: a 16-bit count, then each
 * string as a 16-bit length and its Latin-1 bytes (node:http reads header bytes as Latin-1). False, with nothing
 * usable written, when they do not fit or a string has a character above U+00FF.
 */
export function packStrings(strings: readonly string[], buf: Buffer, from: number, to: number): boolean {
  const end = Math.min(to, buf.length);
  if (strings.length > 0xffff) return false;
  let at = from + 2;
  for (const text of strings) {
    const length = text.length;
    if (at + 2 + length > end) return false;
    buf[at] = length >>> 8;
    buf[at + 1] = length & 0xff;
    at += 2;
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0xff) return false;
      buf[at++] = code;
    }
  }
  if (from + 2 > end) return false;
  buf[from] = strings.length >>> 8;
  buf[from + 1] = strings.length & 0xff;
  return true;
}

export function unpackStrings(buf: Buffer, from: number): string[] {
  const count = ((buf[from] as number) << 8) | (buf[from + 1] as number);
  const strings: string[] = [];
  let at = from + 2;
  for (let i = 0; i < count; i++) {
    const length = ((buf[at] as number) << 8) | (buf[at + 1] as number);
    at += 2;
    strings.push(buf.toString('latin1', at, at + length));
    at += length;
  }
  return strings;
}

export class Journal {
  private readonly ring: (JournalRecord | undefined)[];
  /** SLOT_BYTES per entry, for its request body and headers; allocated once, its pages taken up as they are used. */
  private readonly slots: Buffer;
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number, private readonly known: Known = NOTHING_KNOWN) {
    this.ring = new Array<JournalRecord | undefined>(capacity);
    this.slots = Buffer.allocUnsafeSlow(capacity * SLOT_BYTES);
  }

  get size(): number {
    return this.count;
  }

  /** sensitive: the bodies may carry credentials (token requests) and are masked before they are kept. */
  add(record: JournalRecord, sensitive: boolean): void {
    if (this.capacity === 0) return;
    const slot = this.next * SLOT_BYTES;
    let used = 0;
    const request = record.requestBody;
    if (!sensitive && Buffer.isBuffer(request) && request.length > 0 && request.length <= SLOT_BYTES) {
      request.copy(this.slots, slot);
      record.requestBody = used = request.length;
    } else record.requestBody = kept(request as string | Buffer | undefined, sensitive, this.known);
    // Headers that do not fit after the body stay as they are.
    if (typeof record.rawHeaders !== 'number' && packStrings(record.rawHeaders, this.slots, slot + used, slot + SLOT_BYTES)) record.rawHeaders = used;
    record.responseBody = kept(record.responseBody, sensitive, this.known);
    this.ring[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The newest `limit` entries, oldest first, formatted and masked. */
  entries(limit = this.capacity): JournalEntry[] {
    const n = Math.max(0, Math.min(limit, this.count));
    const out: JournalEntry[] = [];
    for (let i = n; i > 0; i--) {
      const at = (this.next - i + this.capacity) % this.capacity;
      const r = this.ring[at];
      if (!r) continue;
      const request = typeof r.requestBody === 'number' ? this.slots.subarray(at * SLOT_BYTES, at * SLOT_BYTES + r.requestBody) : r.requestBody;
      out.push({
        at: new Date(r.arrivedAt).toISOString(),
        method: r.method,
        path: maskUrl(r.url, this.known),
        operationId: r.operationId,
        status: r.status,
        latencyMs: r.latencyMs,
        clientId: r.clientId,
        requestHeaders: headersOf(typeof r.rawHeaders === 'number' ? unpackStrings(this.slots, at * SLOT_BYTES + r.rawHeaders) : r.rawHeaders, this.known),
        requestBody: journalBody(request, this.known),
        responseBody: journalBody(r.responseBody, this.known),
        ...(r.note ? { note: r.note } : {}),
      });
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}
