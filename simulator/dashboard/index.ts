// The dashboard under /__admin/: the page itself at /__admin/, the JSON it uses under /__admin/api/, and the
// reports of its conformance runs under /__admin/reports/. Not part of the API: no persona, no chaos, no journal.
// A thin router over the admin service (../admin/service.ts), which makes every change, behind the guard it shares
// with the admin API (../admin/guard.ts).
//
// Who may use it: on loopback without an admin token, anyone on this machine, so the Host header must be a loopback
// name (a DNS-rebinding page cannot read it), no other site's request reaches the API, and every write must carry
// X-Rdx-Dashboard (a custom header, which a cross-site page cannot send without a CORS preflight that is never
// granted). With an admin token (always when listening beyond loopback), the page is a login form and every other
// request needs the token in X-Rdx-Admin-Token; a report link, which cannot carry a header, takes a one-time ticket.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { harnessVersion } from '../../src/version.js';
import type { ConformanceRunner } from '../../src/core/conformance.js';
import { AdminRefusal, SNAPSHOT_DISPOSITION, readJsonObject, readSnapshotText } from '../admin/body.js';
import { DASHBOARD_HEADER, dashboardIntent, lacksIntent, refusal, refusalMessage, tokenGiven } from '../admin/guard.js';
import type { AdminService, Done } from '../admin/service.js';
import { errorBody } from '../envelope.js';
import { DEFAULT_CLIENT_SECRET, MAX_RECORDS } from '../options.js';
import type { EventHub } from './events.js';
import { REPORT_CSP, dashboardCsp, dashboardPage } from './page.js';
import { MAX_PAGE_SIZE, isResource, listRecords } from './records.js';
import { Runs, type RunView } from './runs.js';
import type { DashboardState, RunEvent } from '../admin/wire.js';

type Json = Record<string, unknown>;
interface Answer { status: number; body: Json; headers?: Record<string, string> }

const ok = (message: string, data: unknown[]): Answer => ({ status: 200, body: { message, data } });
const done = ({ message, data }: Done): Answer => ok(message, data);
const fail = (status: number, message: string, problems?: string[], headers?: Record<string, string>): Answer => ({
  status, body: errorBody(message, problems), ...(headers ? { headers } : {}),
});

/** Tickets for report links when a token is required: one use each, short-lived, few at a time. */
const TICKET_TTL_MS = 60_000;
const MAX_TICKETS = 32;

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...(answer.headers ?? {}),
  });
  res.end(body);
}

export class Dashboard {
  private readonly runs: Runs;
  private readonly tickets = new Map<string, { reportId: string; expires: number }>();

  /** hub: the live feed, following the service since start-up (followedHub): this is made on the first request. */
  constructor(private readonly service: AdminService, private readonly hub: EventHub, conformance: ConformanceRunner | undefined) {
    const { state } = service;
    this.runs = new Runs({
      options: () => state.options,
      baseUrl: () => state.baseUrl,
      seed: () => state.current.seed,
      expiredToken: () => service.expiredToken(),
      atsJobOfferFixtureIds: () => state.atsJobOfferFixtureIds(),
      chaos: () => state.chaos.active,
      changed: (run) => this.hub.changed('run', { run } satisfies RunEvent),
    }, state.resolved.reportDir, conformance);
  }

  private get token(): string | undefined {
    return this.service.state.resolved.adminToken;
  }

  /** Settles when no conformance run is going on. */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  /** Ends the live streams and refuses new runs; a run going on ends on its own (its requests are refused). */
  close(): void {
    this.hub.close();
    this.runs.close();
  }

  /** name: the path below /__admin/ ('' for the page, 'api/…', 'reports/…'). */
  async handle(req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams): Promise<void> {
    let answer: Answer | 'done';
    try {
      answer = await this.route(req, res, name, query);
    } catch (error) {
      if (res.destroyed) return;
      answer = error instanceof AdminRefusal
        ? fail(error.outcome === 'payloadTooLarge' ? 413 : 400, error.message, error.problems, error.headers)
        : fail(500, `The dashboard request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (answer !== 'done') send(res, answer);
  }

  private async route(req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams): Promise<Answer | 'done'> {
    // The page and a report link are navigated to (from anywhere, without a header); the API is the page's fetch.
    const api = name !== '' && !name.startsWith('reports/');
    const refused = refusal(req, this.token, api ? 'api' : 'page');
    if (refused) return fail(refused === 'token' ? 401 : 403, refusalMessage(refused, 'The dashboard'));
    const method = req.method ?? 'GET';
    if (name === '') return this.page(res, method);
    if (!api) return this.report(req, res, name, query);
    if (lacksIntent(req, dashboardIntent)) return fail(403, `Changes through the dashboard API need the ${DASHBOARD_HEADER} header.`);
    return this.api(req, res, name.slice('api/'.length), method, query);
  }

  /** The page: with a token required, its login form shows until the token is given. */
  private page(res: ServerResponse, method: string): Answer | 'done' {
    if (method !== 'GET' && method !== 'HEAD') return fail(405, '/__admin/ takes GET.', undefined, { allow: 'GET, HEAD' });
    const html = dashboardPage();
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': dashboardCsp(),
      'content-length': String(Buffer.byteLength(html)),
    });
    res.end(method === 'HEAD' ? undefined : html);
    return 'done';
  }

  private async api(req: IncomingMessage, res: ServerResponse, path: string, method: string, query: URLSearchParams): Promise<Answer | 'done'> {
    const parts = path.split('/');
    const allow = (...methods: string[]): Answer | undefined => (methods.includes(method)
      ? undefined
      : fail(405, `/__admin/api/${path} takes ${methods.join(' or ')}.`, undefined, { allow: methods.join(', ') }));
    switch (parts[0]) {
      case 'state':
        return allow('GET') ?? ok('The simulator as the dashboard shows it.', [this.state()]);
      case 'events': {
        const refused = allow('GET');
        if (refused) return refused;
        // A frame, an image or a page navigated here would only hold a stream (a cross-site page cannot read it).
        const dest = req.headers['sec-fetch-dest'];
        if (dest !== undefined && dest !== 'empty') {
          return fail(403, `The live journal is read by the dashboard page's script, not loaded as ${JSON.stringify(dest)}.`);
        }
        const full = this.hub.connect(req, res);
        if (full === 'client') return fail(429, 'This client has the most live dashboards one client may open; close one and reload.', undefined, { 'retry-after': '5' });
        if (full) return fail(503, 'Too many live dashboards are open; close one and reload.', undefined, { 'retry-after': '5' });
        return 'done';
      }
      case 'personas':
        if (method === 'PUT') return done(await this.service.personasFrom(await this.body(req)));
        return allow('GET', 'PUT') ?? this.listPersonas();
      case 'chaos':
        if (method === 'PUT') return done(this.service.chaosFrom(await this.body(req)));
        return allow('GET', 'PUT') ?? done(this.service.chaosDone());
      case 'reset':
        return allow('POST') ?? done(await this.service.resetDone());
      case 'reseed':
        return allow('POST') ?? done(await this.service.reseedFrom(await this.body(req)));
      case 'snapshot':
        if (method === 'PUT') return done(this.service.importFrom(await readSnapshotText(req)));
        return allow('GET', 'PUT') ?? this.exportSnapshot(res);
      case 'records':
        return allow('GET') ?? this.records(parts[1] ?? '', query);
      case 'journal':
        return allow('GET') ?? this.journalEntry(parts[1] ?? '');
      case 'runs':
        return this.runsApi(parts.slice(1), method, allow);
      default:
        return fail(404, `No dashboard endpoint /__admin/api/${path}.`);
    }
  }

  private body(req: IncomingMessage): Promise<Json> {
    return readJsonObject(req, this.service.state.resolved.maxBodyBytes);
  }

  private state(): DashboardState {
    const { state } = this.service;
    const o = state.options;
    const { seed, records } = state.current;
    const run = this.runs.latest();
    return {
      version: harnessVersion,
      baseUrl: state.baseUrl,
      basePath: o.basePath,
      clientId: o.clientId,
      // Shown only when it is the built-in demo secret: one given at start is the operator's to share.
      clientSecret: o.clientSecret === DEFAULT_CLIENT_SECRET ? o.clientSecret : null,
      seed,
      records,
      maxRecords: MAX_RECORDS,
      counts: state.store.counts(),
      pageSize: o.pageSize,
      personas: o.personas.map((p) => ({ name: p.name, kind: p.kind })),
      chaos: this.service.chaosView(),
      adminTokenRequired: this.token !== undefined,
      journalSize: o.journalSize,
      liveClients: this.hub.clientCount,
      run: run ?? null,
    };
  }

  private async listPersonas(): Promise<Answer> {
    const personas = await this.service.personas();
    return ok(`${personas.length} personas.`, personas);
  }

  /** The snapshot as a download: the page fetches it (the admin token goes in a header, never in a link). */
  private exportSnapshot(res: ServerResponse): 'done' {
    const text = this.service.exportSnapshot();
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'application/json',
      'content-disposition': SNAPSHOT_DISPOSITION,
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
    return 'done';
  }

  private records(resource: string, query: URLSearchParams): Answer {
    if (!isResource(resource)) return fail(404, `No resource ${JSON.stringify(resource)}.`);
    const page = Number(query.get('page') ?? '1');
    const size = Number(query.get('size') ?? '25');
    if (!Number.isSafeInteger(page) || page < 1 || !Number.isSafeInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
      return fail(400, `page must be a whole number from 1, size from 1 to ${MAX_PAGE_SIZE}.`);
    }
    const result = listRecords(this.service.state.store, resource, { q: query.get('q') ?? '', ref: query.get('ref') ?? '', page, size });
    const { items, ...meta } = result;
    return { status: 200, body: { message: `${result.total} ${resource}${result.partial ? ' (search stopped early)' : ''}.`, data: items, meta } };
  }

  private journalEntry(id: string): Answer {
    const entry = /^\d{1,15}$/.test(id) ? this.hub.entry(Number(id)) : undefined;
    if (!entry) return fail(404, `The journal no longer holds request ${id}: it keeps the latest ${this.service.state.options.journalSize}.`);
    return ok(`Request ${id}.`, [entry]);
  }

  private runsApi(parts: string[], method: string, allow: (...m: string[]) => Answer | undefined): Answer {
    if (parts.length === 0 || parts[0] === '') {
      if (method === 'POST') {
        const run = this.runs.start();
        if (run === 'busy') return fail(409, 'A conformance run is already going on; wait for its verdict.');
        if (run === 'unavailable') return fail(501, 'This simulator was started without the harness (rdx simulate has it); no run can start here.');
        return { status: 202, body: { message: `Conformance run ${run.n} started.`, data: [run] } };
      }
      return allow('GET', 'POST') ?? ok(`${this.runs.list().length} runs, newest first.`, this.runs.list());
    }
    const run = this.runs.list().find((r) => String(r.n) === parts[0]);
    if (!run) return fail(404, `No run ${parts[0] ?? ''}.`);
    if (parts[1] === undefined) return allow('GET') ?? ok(`Run ${run.n}.`, [run]);
    if (parts[1] === 'ticket' && parts.length === 2) return allow('POST') ?? this.ticket(run);
    return fail(404, `No dashboard endpoint for run ${run.n}.`);
  }

  /** A link to the run's report; with a token required, it carries a one-time ticket (never the token). */
  private ticket(run: RunView): Answer {
    if (!run.reportId || !run.reportPath) return fail(404, `Run ${run.n} has no report.`);
    const path = `/__admin/${run.reportPath}`;
    if (this.token === undefined) return ok('The report needs no ticket here.', [{ url: path }]);
    const now = Date.now();
    for (const [key, t] of this.tickets) if (t.expires <= now) this.tickets.delete(key);
    while (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value as string);
    const ticket = randomBytes(18).toString('base64url');
    this.tickets.set(ticket, { reportId: run.reportId, expires: now + TICKET_TTL_MS });
    return ok('A link that opens the report once, within a minute.', [{ url: `${path}?ticket=${ticket}` }]);
  }

  private report(req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams): Answer | 'done' {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return fail(405, 'Reports take GET.', undefined, { allow: 'GET, HEAD' });
    const match = /^reports\/([^/]+)\/report\.html$/.exec(name);
    const reportId = match?.[1] ?? '';
    const token = this.token;
    if (token !== undefined) {
      const byHeader = tokenGiven(req, token);
      const ticket = query.get('ticket') ?? '';
      const held = this.tickets.get(ticket);
      this.tickets.delete(ticket);
      if (!byHeader && !(held && held.reportId === reportId && held.expires > Date.now())) {
        return fail(401, 'This report link has expired or was used already; open the report again from the dashboard.');
      }
    }
    const file = this.runs.reportFile(reportId);
    if (!file) return fail(404, 'No such report.');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      // The report pins its own script and style by hash; the sandbox keeps it off the dashboard's origin.
      'content-security-policy': REPORT_CSP,
    });
    if (method === 'HEAD') {
      res.end();
      return 'done';
    }
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
    return 'done';
  }
}
