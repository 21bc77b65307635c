// Who may use /__admin/: the one guard of the admin API (api.ts) and the dashboard (dashboard/index.ts).
//
// On loopback without an admin token, anyone on this machine may, but a web page must not reach in: the Host header
// must be a loopback name (a DNS-rebinding page names its own), Origin, when sent, must be this host (a cross-site
// form names its own), and a browser's Sec-Fetch-Site must not say another site (a frame, an image or a GET fetch
// sends no Origin; another port of 127.0.0.1 is the same site, not the same origin). With an admin token (always
// when listening beyond loopback) the request must also carry it in X-Rdx-Admin-Token. A state-changing call must
// carry what a cross-site page cannot send without a CORS preflight, which the simulator never grants: a custom
// header (each surface names its own) or, on the admin API, a JSON Content-Type. A page can post text/plain or a
// form to 127.0.0.1 with no Origin at all, so Origin alone proves nothing.
import type { IncomingMessage } from 'node:http';
import { secretsEqual } from '../auth.js';

export const ADMIN_PREFIX = '/__admin/';
export const ADMIN_TOKEN_HEADER = 'x-rdx-admin-token';
/** Sent by scripts on a state-changing admin call without a JSON body (see adminIntent). */
export const ADMIN_INTENT_HEADER = 'x-rdx-admin';
/** Sent by the dashboard page on every change it asks for. */
export const DASHBOARD_HEADER = 'x-rdx-dashboard';

/** A Host header naming loopback (the admin surface and the dashboard answer only under such a name without a token). */
export const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/** Why a request was refused: the first of the guard's checks it failed (intent is asked apart: see lacksIntent). */
export type Refusal = 'host' | 'origin' | 'site' | 'token';

/**
 * What a route asks of a request. 'page': a page a browser navigates to (the dashboard, a report link), which a
 * link from anywhere may open and which cannot carry a header: a loopback name and no foreign Origin. 'api': the
 * JSON endpoints: that, no other site's request, and the admin token when one is set.
 */
export type Scope = 'page' | 'api';

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

/** The admin token is in its header (compared in constant time). */
export function tokenGiven(req: IncomingMessage, token: string): boolean {
  const given = req.headers[ADMIN_TOKEN_HEADER];
  return typeof given === 'string' && secretsEqual(token, given);
}

/** The admin API's sign of intent: its own header, the admin token's, or a JSON Content-Type. */
export function adminIntent(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return req.headers[ADMIN_INTENT_HEADER] !== undefined || req.headers[ADMIN_TOKEN_HEADER] !== undefined || type === 'application/json';
}

/** The dashboard's sign of intent: its own header, which its page sends on every change. */
export function dashboardIntent(req: IncomingMessage): boolean {
  return req.headers[DASHBOARD_HEADER] !== undefined;
}

/** Why this request may not use a route of this scope, or undefined when it may. */
export function refusal(req: IncomingMessage, token: string | undefined, scope: Scope): Refusal | undefined {
  if (token === undefined && !LOOPBACK_HOST.test(req.headers.host ?? '')) return 'host';
  if (!sameOrigin(req)) return 'origin';
  if (scope === 'page') return undefined;
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return 'site';
  if (token !== undefined && !tokenGiven(req, token)) return 'token';
  return undefined;
}

/** A state-changing request without the surface's sign of intent. */
export function lacksIntent(req: IncomingMessage, intent: (req: IncomingMessage) => boolean): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD' && !intent(req);
}

/** What a refusal says; surface: 'The admin surface' or 'The dashboard'. */
export function refusalMessage(refusal: Refusal, surface: string): string {
  switch (refusal) {
    case 'host':
      return `Without an admin token ${surface.toLowerCase()} answers only requests addressed to a loopback name (127.0.0.1, localhost, [::1]); start the simulator with --admin-token to reach it under another name.`;
    case 'origin':
      return `${surface} answers only requests from this origin.`;
    case 'site':
      return `${surface} takes requests from its own page only, not from another site's.`;
    case 'token':
      return `${surface} needs the admin token in the ${ADMIN_TOKEN_HEADER} header.`;
  }
}
