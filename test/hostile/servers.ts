// A catalogue of misbehaving targets, each wrong in one way, for running the harness against the worst a
// half-built server can do. Each listens on 127.0.0.1 only, counts what it sent, and closes every socket it
// holds (endless and dripping answers included) when closed. Unless the kind is about the token endpoint, the
// token endpoint works, so the harness gets past authentication and meets the misbehaviour in its cases.
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type HostileKind =
  | 'garbage' | 'not-http' | 'endless-body' | 'slow-drip' | 'reset-mid-response' | 'short-content-length'
  | 'long-content-length' | 'redirect-loop' | 'huge-json' | 'endless-pages' | 'deep-json' | 'token-hangs'
  | 'token-garbage' | 'html-everywhere' | 'html-api' | 'token-lives-0s' | 'token-lives-1ms' | 'token-crlf' | 'token-euro'
  | 'token-echo' | 'object-heavy' | 'object-pages-2mib' | 'gzip-object-bomb'
  /** Not in the catalogue (its token is text every report holds): the token is the target's host, 127.0.0.1. */
  | 'token-is-host';

export interface HostileEntry {
  kind: HostileKind;
  description: string;
  /**
   * How the harness must end: with verdicts when the token endpoint answered (a token that cannot be used is the
   * implementation's failure, judged and reported), or unreachable (exit 3) when nothing answered.
   */
  expect: 'verdicts' | 'unreachable';
}

export const CATALOGUE: readonly HostileEntry[] = [
  { kind: 'garbage', description: '200 application/json with 4 KiB of random bytes (invalid UTF-8 included)', expect: 'verdicts' },
  { kind: 'not-http', description: 'random bytes on the socket, no status line, then close', expect: 'verdicts' },
  { kind: 'endless-body', description: '200 application/json and a body that never ends', expect: 'verdicts' },
  { kind: 'slow-drip', description: 'headers at once, then one byte of body every 200 ms, forever', expect: 'verdicts' },
  { kind: 'reset-mid-response', description: 'headers and half a body, then a TCP reset', expect: 'verdicts' },
  { kind: 'short-content-length', description: 'Content-Length 4096, 30 bytes sent, then close', expect: 'verdicts' },
  { kind: 'long-content-length', description: 'Content-Length 10 on a 60-byte JSON body (the rest spills into the connection)', expect: 'verdicts' },
  { kind: 'redirect-loop', description: '307 to the same URL, every time', expect: 'verdicts' },
  { kind: 'huge-json', description: 'a valid 10 MiB JSON list page for every request', expect: 'verdicts' },
  { kind: 'endless-pages', description: 'writes echoed as created; every GET a 1 MiB list page whose next_link points to a new page', expect: 'verdicts' },
  { kind: 'deep-json', description: 'valid JSON nested 100,000 levels deep', expect: 'verdicts' },
  { kind: 'token-hangs', description: 'the token endpoint accepts the connection and never answers', expect: 'unreachable' },
  { kind: 'token-garbage', description: 'the token endpoint answers 200 with random bytes', expect: 'verdicts' },
  { kind: 'html-everywhere', description: 'an HTML 502 page (a gateway whose service is down) for every request, the token endpoint included', expect: 'unreachable' },
  { kind: 'html-api', description: 'the token works; every other answer is an HTML 200 page', expect: 'verdicts' },
  { kind: 'token-lives-0s', description: 'writes echoed; tokens with expires_in 0, and endless same-origin list pages of 4,000 short strings', expect: 'verdicts' },
  { kind: 'token-lives-1ms', description: 'writes echoed; tokens that live 1 ms (a new one for every request), and endless same-origin list pages of 4,000 short strings', expect: 'verdicts' },
  { kind: 'token-crlf', description: 'an access_token with CR and LF in it (a header injection if sent)', expect: 'verdicts' },
  { kind: 'token-euro', description: 'an access_token with a character above U+00FF (tok-€…), which no header can carry', expect: 'verdicts' },
  { kind: 'token-echo', description: 'the token endpoint refuses all but the run\'s own request and echoes it PHP-style (\\/, \\u00dc), percent- and form-encoded', expect: 'verdicts' },
  { kind: 'object-heavy', description: 'writes echoed; every GET a list page of 20,000 empty objects (60 KB, 1.3 MB parsed) whose next_link points to a new page', expect: 'verdicts' },
  { kind: 'object-pages-2mib', description: 'writes echoed; every GET a 2 MiB list page of 700,000 empty objects (about 60 MB parsed) whose next_link points to a new page', expect: 'verdicts' },
  { kind: 'gzip-object-bomb', description: 'every answer but the token 20 KB of gzip that decode to 20 MiB of empty objects (hundreds of MB parsed)', expect: 'verdicts' },
];

export interface HostileServer {
  readonly url: string;
  readonly kind: HostileKind;
  /** The access token its token endpoint hands out (the start of each, for tokens that die at once), so a test can look for it where it must not be. */
  readonly token: string;
  /** Requests received and body bytes written, to show the harness stopped reading. */
  readonly stats: { requests: number; bytesWritten: number };
  close(): Promise<void>;
}

const TOKEN_PATH = '/oauth2/token';
const HTML = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><hr>nginx</body></html>';

/** A list page with its next_link (null: the last page). */
type Pages = (nextLink: string | null) => Buffer;

/** List pages of about `bytes` of valid JSON, their records shaped like job offers (listPages). */
function bigPages(bytes: number): Pages {
  const record = JSON.stringify({ publication_at: '2026-03-01T09:00:00Z', title: 'Nurse', reference: 'JO-2026-000001', description: 'x'.repeat(900) });
  return listPages(Math.max(1, Math.floor(bytes / (record.length + 1))), record);
}

/**
 * List pages of `count` copies of `item` (JSON text) that differ in their next_link only: the items are written once
 * (a 2 MiB page took 23 ms to write, each of the hundreds a run asks for), each page is that and its own ending.
 */
function listPages(count: number, item: string): Pages {
  const items = Buffer.from(`{"message":"ok","data":[${new Array<string>(count).fill(item).join(',')}],"meta":{"next_link":`);
  return (nextLink) => Buffer.concat([items, Buffer.from(`${JSON.stringify(nextLink)}}}`)]);
}

/** A page of `count` distinct short strings. */
function stringsPage(count: number, page: number, nextLink: string | null): Buffer {
  return Buffer.from(`{"message":"ok","data":[${Array.from({ length: count }, (_, i) => `"p${page}s${i}"`).join(',')}],"meta":{"next_link":${JSON.stringify(nextLink)}}}`);
}

/** JSON as PHP's json_encode writes it by default: `/` as `\/`, everything beyond ASCII as `\uXXXX`. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Every form a secret may take in a recorded body, to look for it: raw, JSON-escaped, PHP-escaped, percent- and form-encoded. */
export function secretForms(secret: string): string[] {
  const upper = (t: string): string => t.replace(/%[0-9a-f]{2}/gi, (x) => x.toUpperCase());
  const lower = (t: string): string => t.replace(/%[0-9a-f]{2}/gi, (x) => x.toLowerCase());
  const forms = [secret, JSON.stringify(secret).slice(1, -1), phpJson(secret).slice(1, -1), upper(encodeURIComponent(secret)),
    lower(encodeURIComponent(secret)), new URLSearchParams({ s: secret }).toString().slice(2)];
  return [...new Set(forms)];
}

/**
 * Where a secret survives in a value (a report, parsed): the first string (key or value) that holds it in any of
 * its forms, with the form, or undefined.
 */
export function secretIn(value: unknown, secret: string): string | undefined {
  const forms = secretForms(secret);
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      const form = forms.find((f) => v.includes(f));
      if (form !== undefined) return `${JSON.stringify(form)} in ${JSON.stringify(v.slice(Math.max(0, v.indexOf(form) - 60), v.indexOf(form) + form.length + 20))}`;
    } else if (Array.isArray(v)) for (const x of v as unknown[]) stack.push(x);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) stack.push(k, x);
  }
  return undefined;
}

/** `{"message":"deep","data":[[[…]]]}`, nested `depth` levels. */
function deepJson(depth: number): Buffer {
  return Buffer.from(`{"message":"deep","data":${'['.repeat(depth)}${']'.repeat(depth)},"meta":{"next_link":null}}`);
}

/** The page a list request asks for (`?page=N`, 0 without) and the link to the one after it, at `origin`. */
function pageOf(origin: string, url = '/'): { page: number; next: string } {
  const page = Number(/[?&]page=(\d+)/.exec(url)?.[1] ?? 0);
  return { page, next: `${origin}${url.split('?')[0] ?? '/'}?page=${page + 1}` };
}

/** The bodies a kind answers with that are made once, up front; `pages` for the kinds whose list pages never end. */
function bodiesOf(kind: HostileKind): { pages?: Pages; objectBomb?: Buffer; huge?: Buffer; deep?: Buffer } {
  switch (kind) {
    case 'object-heavy': return { pages: listPages(20_000, '{}') };
    case 'object-pages-2mib': return { pages: listPages(700_000, '{}') };
    case 'endless-pages': return { pages: bigPages(1024 * 1024) };
    case 'gzip-object-bomb': return { objectBomb: gzipSync(listPages(7_000_000, '{}')(null), { level: 9 }) };
    case 'huge-json': return { huge: bigPages(10 * 1024 * 1024)(null) };
    case 'deep-json': return { deep: deepJson(100_000) };
    default: return {};
  }
}

/** The targets that echo every write as created (and misbehave on reads only). */
const ECHOES_WRITES = new Set<HostileKind>(['endless-pages', 'object-heavy', 'object-pages-2mib', 'token-lives-1ms', 'token-lives-0s']);

/** Counts each request, and answers it at once or, past `slowAfter.requests`, `slowAfter.ms` late. */
function paced(answer: RequestListener, options: HostileOptions, stats: { requests: number }, timers: Set<NodeJS.Timeout>): RequestListener {
  return (req, res) => {
    stats.requests += 1;
    const slow = options.slowAfter;
    if (slow === undefined || stats.requests <= slow.requests) return answer(req, res);
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer(req, res);
    }, slow.ms);
    timers.add(timer);
  };
}

/** How a test may pace a target: `slowAfter` holds each answer after the first `requests` for `ms`. */
export interface HostileOptions {
  slowAfter?: { requests: number; ms: number };
}

export async function startHostile(kind: HostileKind, options: HostileOptions = {}): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const stats = { requests: 0, bytesWritten: 0 };
  const token = kind === 'token-crlf' ? `hostile-${randomBytes(8).toString('hex')}\r\nX-Injected: 1`
    : kind === 'token-euro' ? `tok-€${randomBytes(8).toString('hex')}`
      : kind === 'token-is-host' ? '127.0.0.1'
        : `hostile-${randomBytes(16).toString('hex')}`;
  const expiresIn = kind === 'token-lives-0s' ? 0 : kind === 'token-lives-1ms' ? 0.001 : 3600;
  // Tokens that die at once are new ones each time (the `token` they all start with), each a secret to mask.
  const shortLived = kind === 'token-lives-0s' || kind === 'token-lives-1ms';
  const { pages, objectBomb, huge, deep } = bodiesOf(kind);
  let origin = '';

  const send = (res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer | string): void => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    stats.bytesWritten += bytes.length;
    res.writeHead(status, { 'content-length': String(bytes.length), ...headers }).end(bytes);
  };

  const misbehave = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    switch (kind) {
      case 'garbage':
      case 'token-garbage':
        return send(res, 200, { 'content-type': 'application/json' }, randomBytes(4096));
      case 'not-http': {
        const junk = randomBytes(512);
        stats.bytesWritten += junk.length;
        socket.end(junk);
        return;
      }
      case 'endless-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"message":"ok","data":[');
        const chunk = Buffer.from('0,'.repeat(32 * 1024));
        const pump = (): void => {
          let more = true;
          while (!res.destroyed && more) {
            more = res.write(chunk);
            stats.bytesWritten += chunk.length;
          }
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      case 'slow-drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => {
          if (res.destroyed) {
            clearInterval(timer);
            timers.delete(timer);
            return;
          }
          stats.bytesWritten += 1;
          res.write(' ');
        }, 200);
        timers.add(timer);
        return;
      }
      case 'reset-mid-response': {
        const body = '{"message":"ok","data":[{"title":"half';
        stats.bytesWritten += body.length;
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n${body}`, () => socket.resetAndDestroy());
        return;
      }
      case 'short-content-length':
        stats.bytesWritten += 30;
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4096\r\n\r\n{"message":"ok","data":[],"me`);
        return;
      case 'long-content-length': {
        const body = '{"message":"ok","data":[],"meta":{"next_link":null},"pad":"x"}';
        stats.bytesWritten += body.length;
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n${body}`);
        return;
      }
      case 'redirect-loop':
        return send(res, 307, { location: `${origin}${req.url ?? '/'}`, 'content-type': 'text/html' }, HTML);
      case 'huge-json':
        return send(res, 200, { 'content-type': 'application/json' }, huge as Buffer);
      case 'deep-json':
        return send(res, 200, { 'content-type': 'application/json' }, deep as Buffer);
      case 'token-hangs':
        return send(res, 200, { 'content-type': 'application/json' }, '{"message":"never reached"}');
      case 'html-everywhere':
        return send(res, 502, { 'content-type': 'text/html' }, HTML);
      case 'html-api':
        return send(res, 200, { 'content-type': 'text/html; charset=utf-8' }, HTML);
      case 'token-lives-0s':
      case 'token-lives-1ms': {
        const { page, next } = pageOf(origin, req.url);
        return send(res, 200, { 'content-type': 'application/json' }, stringsPage(4_000, page, next));
      }
      case 'gzip-object-bomb': return send(res, 200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, objectBomb as Buffer);
      case 'endless-pages':
      case 'object-heavy':
      case 'object-pages-2mib':
        return send(res, 200, { 'content-type': 'application/json' }, (pages as Pages)(pageOf(origin, req.url).next));
      case 'token-crlf':
      case 'token-euro':
      case 'token-echo':
      case 'token-is-host':
        return send(res, 200, { 'content-type': 'application/json' }, '{"message":"ok","data":[],"meta":{"next_link":null}}');
    }
  };

  /**
   * token-echo's token endpoint: the run's own request (JSON with client_id, client_secret and grant_type) gets a
   * token; any other is refused with a body that echoes it as a PHP service would, JSON-escaped, percent- and
   * form-encoded, so the client secret comes back in every form but the raw one.
   */
  const echoToken = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').slice(0, 64 * 1024);
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      if (body && typeof body['client_secret'] === 'string' && body['grant_type'] === 'client_credentials' && /json/.test(req.headers['content-type'] ?? '')) {
        send(res, 200, { 'content-type': 'application/json', 'cache-control': 'no-store' }, JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      const echo = { error: 'invalid_request', error_description: 'request refused', request: text, query: encodeURIComponent(text), form: new URLSearchParams({ request: text }).toString() };
      send(res, 400, { 'content-type': 'application/json' }, phpJson(echo));
    });
  };

  /** Writes answered as a working server would, so a case's setup gets as far as its list walk. */
  const echo = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 1024 * 1024) chunks.push(chunk);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = {};
      }
      const items = (Array.isArray(body) ? body : [body]).map((item, i) => (item && typeof item === 'object' && !Array.isArray(item) ? { id: stats.requests * 1_000 + i, ...item } : item));
      const created = req.method === 'POST';
      send(res, created ? 201 : 200, { 'content-type': 'application/json' }, JSON.stringify({ message: created ? 'created' : 'done', data: req.method === 'DELETE' ? [] : items }));
    });
  };

  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const isToken = (req.url ?? '').split('?')[0]?.endsWith(TOKEN_PATH) === true;
    if (ECHOES_WRITES.has(kind) && !isToken && req.method !== 'GET') return echo(req, res);
    if (kind === 'token-echo' && isToken) return echoToken(req, res);
    // The body is drained and ignored, so a request is never left half-read.
    req.resume();
    if (isToken && kind === 'token-hangs') return;
    if (isToken && kind !== 'token-garbage' && kind !== 'html-everywhere') {
      send(res, 200, { 'content-type': 'application/json', 'cache-control': 'no-store' }, JSON.stringify({ access_token: shortLived ? `${token}-${stats.requests}` : token, token_type: 'Bearer', expires_in: expiresIn }));
      return;
    }
    misbehave(req, res);
  };
  const server = createServer(paced(answer, options, stats, timers));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client that resets mid-answer must not become an unhandled error here.
    socket.on('error', () => undefined);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    kind,
    token,
    stats,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
