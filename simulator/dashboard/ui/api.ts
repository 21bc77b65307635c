// The dashboard's JSON API (/__admin/api/, simulator/dashboard/index.ts): every call carries the page's own header and
// the admin token when there is one; a 401 hands over to the login form (app.ts sets session.unauthorized).
import type { RecordPage } from '../../admin/wire.js';

export type Item = Record<string, unknown>;
/** The envelope of every answer: data and, for records, meta (RecordPage without its items). */
export interface Body<T> { message?: string; errors?: { message?: string }[]; data: T[]; meta: Omit<RecordPage, 'items'> }
export interface Reply<T> { status: number; ok: boolean; body: Body<T> }

export const API = '/__admin/api/';
const TOKEN_KEY = 'rdx-admin-token';
export const UNREACHABLE = 'The simulator cannot be reached.';

export const session = { token: '', unauthorized: function (): void { /* set by app.ts */ } };
try { session.token = sessionStorage.getItem(TOKEN_KEY) || ''; } catch { session.token = ''; }

/** Keeps the token for this tab's session, if the browser lets it. */
export function keepToken(token: string): void {
  session.token = token;
  try { sessionStorage.setItem(TOKEN_KEY, token); } catch { /* private mode: keep it in memory */ }
}

/** Every dashboard call carries its own header (a cross-site page cannot send it) and the admin token if there is one. */
export function apiHeaders(): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-rdx-dashboard': '1' };
  if (session.token) headers['x-rdx-admin-token'] = session.token;
  return headers;
}
export function reply<T>(res: Response): Promise<Reply<T>> {
  return res.text().then(function (text) {
    let json = {} as Body<T>;
    try { json = text ? JSON.parse(text) as Body<T> : json; } catch { json = { message: text } as Body<T>; }
    if (res.status === 401) session.unauthorized();
    return { status: res.status, ok: res.ok, body: json };
  });
}
/** body: sent as JSON, or as it is when it is a file (a snapshot). */
export function api<T = Item>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const headers = apiHeaders();
  const init: RequestInit = { method: method, headers: headers, cache: 'no-store', credentials: 'same-origin' };
  if (body !== undefined) { headers['content-type'] = 'application/json'; init.body = body instanceof Blob ? body : JSON.stringify(body); }
  return fetch(API + path, init).then(function (res) { return reply<T>(res); }, function () {
    return { status: 0, ok: false, body: { message: UNREACHABLE } as Body<T> };
  });
}
export function problem(r: Reply<unknown>): string {
  const b = r.body || {};
  const extra = (b.errors || []).map(function (e) { return e.message; }).filter(function (m) { return m && m !== b.message; });
  return (b.message || ('HTTP ' + r.status)) + (extra.length ? ' ' + extra.join('; ') : '');
}
