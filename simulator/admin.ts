// The admin surface under /__admin/: not part of the API the spec describes, and never mounted under the base
// path. Health, reset to the seed, reseed, and the request journal. When the simulator listens beyond loopback,
// every admin request but health (which container health checks call) must carry the admin token in
// X-Rdx-Admin-Token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { secretsEqual } from './auth.js';
import type { JsonObject } from './context.js';
import { errorBody } from './envelope.js';
import type { JournalEntry } from './journal.js';
import { MAX_RECORDS } from './options.js';
import { rules, type Outcome } from './rules.js';
import type { SeedCounts } from './seed.js';
import { readBody, utf8 } from './server.js';
import { SnapshotError } from './snapshot.js';

export const ADMIN_PREFIX = '/__admin/';
export const ADMIN_TOKEN_HEADER = 'x-rdx-admin-token';
/** Sent by scripts on a state-changing admin call without a JSON body (see adminIntent). */
export const ADMIN_INTENT_HEADER = 'x-rdx-admin';

/**
 * A state-changing admin call must carry what a cross-site page cannot send without a CORS preflight (which the
 * simulator never grants): a custom header (X-Rdx-Admin, or the admin token's) or a JSON Content-Type. A page
 * can post text/plain or a form to 127.0.0.1 with no Origin at all, so Origin alone proves nothing.
 */
export function adminIntent(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return req.headers[ADMIN_INTENT_HEADER] !== undefined || req.headers[ADMIN_TOKEN_HEADER] !== undefined || type === 'application/json';
}

/** A Host header naming loopback (the admin surface and the dashboard answer only under such a name without a token). */
export const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/** A browser names the page's origin on cross-origin requests (and on same-origin writes): it must be this host. */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export interface AdminTarget {
  adminToken: string | undefined;
  maxBodyBytes: number;
  health(): JsonObject;
  reset(): Promise<SeedCounts>;
  reseed(seed: number, records: number): Promise<SeedCounts>;
  current(): { seed: number; records: number };
  journal(limit?: number): JournalEntry[];
  expiredToken(): string;
  /** The store as a snapshot document, and its replacement by one (throws SnapshotError: what is wrong). */
  exportSnapshot(): string;
  importSnapshot(text: string): SeedCounts;
  /** The dashboard: the page at /__admin/, its JSON under /__admin/api/, run reports under /__admin/reports/. */
  dashboard?: {
    handle(req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams): Promise<void>;
  };
}

/** Paths below /__admin/ that belong to the dashboard. */
export function isDashboardPath(name: string): boolean {
  return name === '' || name.startsWith('api/') || name.startsWith('reports/');
}

/** raw: a JSON text sent as it is instead of body. */
type Answer = { outcome: Outcome; body: JsonObject; headers?: Record<string, string>; raw?: string };

const ROUTES: Readonly<Record<string, readonly string[]>> = {
  health: ['GET'], reset: ['POST'], reseed: ['POST'], journal: ['GET'], 'expired-token': ['POST'], snapshot: ['GET', 'PUT'],
};
/** An export is a download, under this name. */
export const SNAPSHOT_DISPOSITION = 'attachment; filename="rdx-simulator-snapshot.json"';
/** A snapshot may be far larger than an API request body: 1M records take about 400 MB. */
export const SNAPSHOT_MAX_BYTES = 1024 ** 3;

function fail(outcome: Outcome, message: string, headers?: Record<string, string>): Answer {
  return { outcome, body: errorBody(message), ...(headers ? { headers } : {}) };
}

function whole(value: unknown, name: string, max: number): number | string {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= max
    ? (value as number)
    : `${name} must be an integer from 0 to ${max}`;
}

async function reseed(target: AdminTarget, req: IncomingMessage): Promise<Answer> {
  let body: JsonObject = {};
  const raw = await readBody(req, target.maxBodyBytes);
  if (!raw) return fail('payloadTooLarge', 'The request body is too large.', { connection: 'close' });
  if (raw.length > 0) {
    try {
      const text = utf8(raw);
      if (text === undefined) return fail('malformedJson', 'The body is not valid UTF-8.');
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('validation', 'The body must be an object {seed, records}.');
      body = parsed as JsonObject;
    } catch {
      return fail('malformedJson', 'The body is not well-formed JSON.');
    }
  }
  const current = target.current();
  const seed = whole(body['seed'] ?? current.seed, 'seed', Number.MAX_SAFE_INTEGER);
  const records = whole(body['records'] ?? current.records, 'records', MAX_RECORDS);
  const problems = [seed, records].filter((v): v is string => typeof v === 'string');
  if (problems.length > 0) return { outcome: 'validation', body: errorBody('The reseed request is not valid.', problems) };
  const counts = await target.reseed(seed as number, records as number);
  return { outcome: 'ok', body: { message: `Reseeded with seed ${String(seed)}, ${String(records)} records.`, data: [counts] } };
}

/** What became of a snapshot sent to be imported: the store's new counts, or why nothing changed. */
export type SnapshotReceipt =
  | { imported: SeedCounts }
  | { refused: string; outcome: 'payloadTooLarge' | 'validation'; headers?: Record<string, string> };

/** Reads a snapshot from the request body and imports it, all or nothing (the admin API and the dashboard both take one). */
export async function receiveSnapshot(req: IncomingMessage, importSnapshot: (text: string) => SeedCounts): Promise<SnapshotReceipt> {
  const raw = await readBody(req, SNAPSHOT_MAX_BYTES);
  if (!raw) return { refused: `The snapshot is larger than ${SNAPSHOT_MAX_BYTES} bytes.`, outcome: 'payloadTooLarge', headers: { connection: 'close' } };
  const text = utf8(raw);
  if (text === undefined) return { refused: 'The snapshot was refused, nothing changed: it is not UTF-8 text.', outcome: 'validation' };
  try {
    return { imported: importSnapshot(text) };
  } catch (error) {
    if (error instanceof SnapshotError) return { refused: `The snapshot was refused, nothing changed: ${error.message}.`, outcome: 'validation' };
    throw error;
  }
}

async function importSnapshot(target: AdminTarget, req: IncomingMessage): Promise<Answer> {
  const receipt = await receiveSnapshot(req, (text) => target.importSnapshot(text));
  if ('refused' in receipt) return fail(receipt.outcome, receipt.refused, receipt.headers);
  const { seed, records } = target.current();
  return { outcome: 'ok', body: { message: `Snapshot imported (seed ${seed}, ${records} records at first); the store holds its records now.`, data: [receipt.imported] } };
}

async function answer(target: AdminTarget, req: IncomingMessage, name: string, query: URLSearchParams): Promise<Answer> {
  // Without a token (loopback only) a web page must still not reach in: a DNS-rebinding page names a foreign host,
  // and a cross-site form post names a foreign origin. Both are refused, as on the dashboard.
  if (target.adminToken === undefined && name !== 'health' && Object.hasOwn(ROUTES, name) &&
      (!LOOPBACK_HOST.test(req.headers.host ?? '') || !sameOrigin(req))) {
    return fail('unauthorized', 'The admin surface answers only requests addressed to a loopback name from this origin.');
  }
  if (target.adminToken !== undefined && name !== 'health') {
    const given = req.headers[ADMIN_TOKEN_HEADER];
    if (typeof given !== 'string' || !secretsEqual(target.adminToken, given)) {
      return fail('unauthorized', `The admin surface needs the admin token in the ${ADMIN_TOKEN_HEADER} header.`);
    }
  }
  // Own members only: __proto__, constructor or toString would otherwise be found on Object.prototype.
  const methods = Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
  if (!methods) return fail('notFound', `No admin endpoint ${ADMIN_PREFIX}${name}; there are ${Object.keys(ROUTES).join(', ')}.`);
  const allowed = methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  if (!allowed.includes(req.method ?? '')) return fail('methodNotAllowed', `${ADMIN_PREFIX}${name} takes ${methods.join(' or ')}.`, { allow: allowed.join(', ') });
  if (req.method !== 'GET' && req.method !== 'HEAD' && !adminIntent(req)) {
    return fail('unauthorized', `${ADMIN_PREFIX}${name} changes the simulator: send the ${ADMIN_INTENT_HEADER}: 1 header or a JSON body with Content-Type application/json (a cross-site page can send neither).`);
  }
  switch (name) {
    case 'snapshot':
      return req.method === 'GET'
        ? { outcome: 'ok', body: {}, raw: target.exportSnapshot(), headers: { 'content-disposition': SNAPSHOT_DISPOSITION } }
        : importSnapshot(target, req);
    case 'health':
      return { outcome: 'ok', body: { message: 'The simulator is up.', data: [target.health()] } };
    case 'reset': {
      const counts = await target.reset();
      const { seed, records } = target.current();
      return { outcome: 'ok', body: { message: `Store reset to seed ${seed} (${records} records); journal emptied.`, data: [counts] } };
    }
    case 'reseed':
      return reseed(target, req);
    case 'expired-token':
      return { outcome: 'ok', body: { message: 'An access token that has already expired.', data: [{ access_token: target.expiredToken() }] } };
    default: {
      const limitText = query.get('limit');
      const limit = limitText === null ? undefined : Number(limitText);
      if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) return fail('validation', 'limit must be a whole number.');
      const entries = target.journal(limit);
      return { outcome: 'ok', body: { message: `${entries.length} recent requests, oldest first.`, data: entries } };
    }
  }
}

export async function handleAdmin(target: AdminTarget, req: IncomingMessage, res: ServerResponse, rawPath: string, query: URLSearchParams): Promise<void> {
  const name = rawPath.slice(ADMIN_PREFIX.length);
  if (target.dashboard && isDashboardPath(name)) return target.dashboard.handle(req, res, name, query);
  let result: Answer;
  try {
    result = await answer(target, req, rawPath.slice(ADMIN_PREFIX.length), query);
  } catch (error) {
    if (res.destroyed) return;
    result = { outcome: 'validation', body: errorBody(`The admin request failed: ${(error as Error).message}`) };
  }
  const body = result.raw ?? JSON.stringify(result.body);
  if (res.headersSent || res.destroyed) return;
  res.writeHead(rules().status[result.outcome], {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(body)),
    ...(result.headers ?? {}),
  });
  res.end(body);
}
