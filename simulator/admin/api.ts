// The admin API under /__admin/: not part of the API the spec describes, and never mounted under the base path.
// Health, reset to the seed, reseed, the request journal, an expired token and snapshots, each a call of the admin
// service (service.ts) behind the guard (guard.ts). Health is open to anyone (container health checks call it).
// The dashboard's paths below /__admin/ go to the dashboard.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../envelope.js';
import { rules, type Outcome } from '../rules.js';
import { AdminRefusal, SNAPSHOT_DISPOSITION, readJsonObject, readSnapshotText, type JsonObject } from './body.js';
import { ADMIN_INTENT_HEADER, ADMIN_PREFIX, adminIntent, lacksIntent, refusal, refusalMessage } from './guard.js';
import type { AdminService, Done } from './service.js';

/** The dashboard: the page at /__admin/, its JSON under /__admin/api/, run reports under /__admin/reports/. */
export interface DashboardRouter {
  handle(req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams): Promise<void>;
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

function fail(outcome: Outcome, message: string, headers?: Record<string, string>): Answer {
  return { outcome, body: errorBody(message), ...(headers ? { headers } : {}) };
}

const ok = (done: Done): Answer => ({ outcome: 'ok', body: { ...done } });

/** Who may call this endpoint with this method, and the 404 or 405 of one that is not there. */
function admit(service: AdminService, req: IncomingMessage, name: string): Answer | undefined {
  // Own members only: __proto__, constructor or toString would otherwise be found on Object.prototype.
  const methods = Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
  if (!methods) return fail('notFound', `No admin endpoint ${ADMIN_PREFIX}${name}; there are ${Object.keys(ROUTES).join(', ')}.`);
  const refused = name === 'health' ? undefined : refusal(req, service.state.resolved.adminToken, 'api');
  if (refused) return fail('unauthorized', refusalMessage(refused, 'The admin surface'));
  const allowed = methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  if (!allowed.includes(req.method ?? '')) return fail('methodNotAllowed', `${ADMIN_PREFIX}${name} takes ${methods.join(' or ')}.`, { allow: allowed.join(', ') });
  if (lacksIntent(req, adminIntent)) {
    return fail('unauthorized', `${ADMIN_PREFIX}${name} changes the simulator: send the ${ADMIN_INTENT_HEADER}: 1 header or a JSON body with Content-Type application/json (a cross-site page can send neither).`);
  }
  return undefined;
}

async function answer(service: AdminService, req: IncomingMessage, name: string, query: URLSearchParams): Promise<Answer> {
  const refused = admit(service, req, name);
  if (refused) return refused;
  switch (name) {
    case 'snapshot':
      return req.method === 'GET'
        ? { outcome: 'ok', body: {}, raw: service.exportSnapshot(), headers: { 'content-disposition': SNAPSHOT_DISPOSITION } }
        : ok(service.importFrom(await readSnapshotText(req)));
    case 'health':
      return { outcome: 'ok', body: { message: 'The simulator is up.', data: [service.health()] } };
    case 'reset':
      return ok(await service.resetDone());
    case 'reseed':
      return ok(await service.reseedFrom(await readJsonObject(req, service.state.resolved.maxBodyBytes)));
    case 'expired-token':
      return { outcome: 'ok', body: { message: 'An access token that has already expired.', data: [{ access_token: service.expiredToken() }] } };
    default: {
      const limitText = query.get('limit');
      const limit = limitText === null ? undefined : Number(limitText);
      if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) return fail('validation', 'limit must be a whole number.');
      const entries = service.journal(limit);
      return { outcome: 'ok', body: { message: `${entries.length} recent requests, oldest first.`, data: entries } };
    }
  }
}

/** Everything under /__admin/: the admin API, or the dashboard's paths when there is a dashboard. */
export async function handleAdmin(
  service: AdminService, dashboard: DashboardRouter | undefined, req: IncomingMessage, res: ServerResponse, rawPath: string, query: URLSearchParams,
): Promise<void> {
  const name = rawPath.slice(ADMIN_PREFIX.length);
  if (dashboard && isDashboardPath(name)) return dashboard.handle(req, res, name, query);
  let result: Answer;
  try {
    result = await answer(service, req, name, query);
  } catch (error) {
    if (res.destroyed) return;
    result = error instanceof AdminRefusal
      ? { outcome: error.outcome, body: errorBody(error.message, error.problems), ...(error.headers ? { headers: error.headers } : {}) }
      : { outcome: 'validation', body: errorBody(`The admin request failed: ${(error as Error).message}`) };
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
