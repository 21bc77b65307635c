// The request journal behind GET /__admin/journal: the latest requests in a fixed-size ring, so a long-running
// simulator never grows with its traffic. To keep the request path fast an entry holds references (raw headers,
// bodies) and is formatted and masked when read; the token endpoint's bodies are masked before they are kept, so
// the ring never holds a client secret or an access token.

export interface JournalEntry {
  /** When the request arrived (ISO 8601). */
  at: string;
  method: string;
  /** Path and query, with any access_token in the query masked. */
  path: string;
  operationId: string | null;
  status: number;
  latencyMs: number;
  clientId: string | null;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  responseBody: string | null;
}

/** What the request path hands over: cheap to make, formatted only when read. */
export interface JournalRecord {
  arrivedAt: number;
  method: string;
  url: string;
  operationId: string | null;
  status: number;
  latencyMs: number;
  clientId: string | null;
  rawHeaders: readonly string[];
  requestBody: string | Buffer | undefined;
  responseBody: string | Buffer | undefined;
}

export const MASK = '***';
/** Characters of a body kept in an entry. */
export const BODY_LIMIT = 16_384;

// The value may be cut short by BODY_LIMIT, so an unterminated string to the end of the text counts too.
const JSON_SECRET = /("(?:client_secret|access_token|refresh_token|password)"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/g;
const FORM_SECRET = /((?:^|&|\?)(?:client_secret|access_token|refresh_token|password)=)[^&#]*/g;
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-rdx-admin-token']);

/** Masks secret members of a JSON or form-encoded text (client_secret, access_token, …). */
export function maskSecrets(text: string): string {
  if (!/secret|token|password/.test(text)) return text;
  return text.replace(JSON_SECRET, `$1"${MASK}"`).replace(FORM_SECRET, `$1${MASK}`);
}

/** Header values flattened to strings; credentials masked, keeping the scheme of an Authorization header. */
export function maskHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (!SECRET_HEADERS.has(name)) out[name] = text;
    else if (name.endsWith('authorization')) out[name] = `${text.split(' ')[0] ?? ''} ${MASK}`.trim();
    else out[name] = MASK;
  }
  return out;
}

function headersOf(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    headers[name] = headers[name] === undefined ? (raw[i + 1] as string) : `${headers[name]}, ${raw[i + 1] as string}`;
  }
  return maskHeaders(headers);
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
export function journalBody(body: string | Buffer | undefined): string | null {
  if (body === undefined || body.length === 0) return null;
  return maskSecrets(cutText(body));
}

/**
 * A body as the ring keeps it: credentials masked at once; a body over BODY_LIMIT cut, as a copy, so that the
 * ring never keeps a large body alive (a slice of a string would still hold all of it).
 */
function kept(body: string | Buffer | undefined, sensitive: boolean): string | Buffer | undefined {
  if (body === undefined || body.length === 0) return undefined;
  if (sensitive) return journalBody(body) ?? undefined;
  if (body.length <= BODY_LIMIT) return body;
  return typeof body === 'string' ? Buffer.from(cutText(body), 'utf8') : cutText(body);
}

export class Journal {
  private readonly ring: (JournalRecord | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.ring = new Array<JournalRecord | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** sensitive: the bodies may carry credentials (token requests) and are masked before they are kept. */
  add(record: JournalRecord, sensitive: boolean): void {
    if (this.capacity === 0) return;
    record.requestBody = kept(record.requestBody, sensitive);
    record.responseBody = kept(record.responseBody, sensitive);
    this.ring[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The newest `limit` entries, oldest first, formatted and masked. */
  entries(limit = this.capacity): JournalEntry[] {
    const n = Math.max(0, Math.min(limit, this.count));
    const out: JournalEntry[] = [];
    for (let i = n; i > 0; i--) {
      const r = this.ring[(this.next - i + this.capacity) % this.capacity];
      if (!r) continue;
      out.push({
        at: new Date(r.arrivedAt).toISOString(),
        method: r.method,
        path: maskSecrets(r.url),
        operationId: r.operationId,
        status: r.status,
        latencyMs: r.latencyMs,
        clientId: r.clientId,
        requestHeaders: headersOf(r.rawHeaders),
        requestBody: journalBody(r.requestBody),
        responseBody: journalBody(r.responseBody),
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
