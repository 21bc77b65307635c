// The dashboard under /__admin/: the page itself at /__admin/, the JSON it uses under /__admin/api/, and the
// reports of its conformance runs under /__admin/reports/. Not part of the API: no persona, no chaos, no journal.
//
// Who may use it: on loopback without an admin token, anyone on this machine, so the Host header must be a loopback
// name (a DNS-rebinding page cannot read it) and every write must carry X-Rdx-Dashboard (a custom header, which a
// cross-site page cannot send without a CORS preflight that is never granted). With an admin token (always when
// listening beyond loopback), the page is a login form and every other request needs the token in
// X-Rdx-Admin-Token; a report link, which cannot carry a header, takes a one-time ticket instead.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { harnessVersion } from '../../src/version.js';
import { ADMIN_TOKEN_HEADER, LOOPBACK_HOST, SNAPSHOT_DISPOSITION, receiveSnapshot, sameOrigin } from '../admin.js';
import { secretsEqual } from '../auth.js';
import { chaosActive, chaosSettings, describeChaos, type Chaos, type ChaosSettings } from '../chaos.js';
import { errorBody } from '../envelope.js';
import type { Journal } from '../journal.js';
import { DEFAULT_CLIENT_SECRET, MAX_RECORDS, type ResolvedOptions } from '../options.js';
import { atsJobOfferFixtureIds } from '../personas/catalogue.js';
import type { Persona } from '../personas/types.js';
import type { SeedCounts } from '../seed.js';
import { readBody, utf8 } from '../server.js';
import type { Store } from '../store.js';
import { UsageError } from '../../src/errors.js';
import type { ConformanceRunner } from '../../src/core/conformance.js';
import { EventHub } from './events.js';
import { REPORT_CSP, dashboardCsp, dashboardPage } from './page.js';
import { MAX_PAGE_SIZE, isResource, listRecords } from './records.js';
import { Runs, type RunView } from './runs.js';

export const DASHBOARD_HEADER = 'x-rdx-dashboard';

export interface DashboardHost {
  readonly adminToken: string | undefined;
  readonly maxBodyBytes: number;
  readonly store: Store;
  readonly journal: Journal;
  readonly chaos: Chaos;
  /** The options in force now (personas switched at runtime included). */
  options(): ResolvedOptions;
  baseUrl(): string;
  current(): { seed: number; records: number };
  reset(): Promise<SeedCounts>;
  reseed(seed: number, records: number): Promise<SeedCounts>;
  setPersonas(personas: readonly Persona[]): void;
  /** The store as a snapshot document, and its replacement by one (throws SnapshotError: what is wrong). */
  exportSnapshot(): string;
  importSnapshot(text: string): SeedCounts;
  expiredToken(): string;
  /** The harness, handed in by the composition root; without it "Run conformance" is not available. */
  readonly conformance: ConformanceRunner | undefined;
}

type Json = Record<string, unknown>;
interface Answer { status: number; body: Json; headers?: Record<string, string> }

const ok = (message: string, data: unknown[]): Answer => ({ status: 200, body: { message, data } });
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

function wholeNumber(value: unknown, name: string, min: number, max: number, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) return value;
  problems.push(`${name} must be a whole number from ${min} to ${max}`);
  return undefined;
}

export class Dashboard {
  private readonly hub: EventHub;
  private readonly runs: Runs;
  private readonly tickets = new Map<string, { reportId: string; expires: number }>();

  constructor(private readonly host: DashboardHost) {
    this.hub = new EventHub(host.journal);
    this.runs = new Runs({
      options: () => host.options(),
      baseUrl: () => host.baseUrl(),
      seed: () => host.current().seed,
      expiredToken: () => host.expiredToken(),
      atsJobOfferFixtureIds: () => atsJobOfferFixtureIds(host.store, host.options().personas),
      chaos: () => host.chaos.active,
      changed: (run) => this.hub.changed('run', { run }),
    }, host.options().reportDir, host.conformance);
  }

  /** The pipeline added a journal entry. */
  journaled(): void {
    this.hub.journaled();
  }

  /** The journal was emptied (reset or reseed, from wherever it came). */
  journalCleared(): void {
    this.hub.journalCleared();
    this.hub.changed('state');
  }

  /** The store was replaced (a snapshot imported, from wherever it came): live pages reload what they show. */
  storeReplaced(): void {
    this.hub.changed('state');
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
      answer = error instanceof UsageError
        ? fail(400, error.message)
        : fail(500, `The dashboard request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (answer !== 'done') send(res, answer);
  }

  private async route(req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams): Promise<Answer | 'done'> {
    const token = this.host.adminToken;
    if (token === undefined && !LOOPBACK_HOST.test(req.headers.host ?? '')) {
      return fail(403, 'Without an admin token the dashboard answers only to a loopback address (127.0.0.1, localhost, [::1]); start the simulator with --admin-token to reach it under another name.');
    }
    if (!sameOrigin(req)) return fail(403, 'The dashboard takes requests from its own page only.');
    const method = req.method ?? 'GET';
    if (name === '') {
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
    if (name.startsWith('reports/')) return this.report(req, res, name, query);
    // The page calls its API from its own origin. A browser says where a request comes from in Sec-Fetch-Site even
    // when it sends no Origin (a frame, an image, a GET fetch): one from another site (another port of 127.0.0.1
    // included) is refused; clients that send no such header (curl, scripts) are not browsers a page can drive.
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') return fail(403, 'The dashboard API takes requests from its own page only.');
    if (token !== undefined) {
      const given = req.headers[ADMIN_TOKEN_HEADER];
      if (typeof given !== 'string' || !secretsEqual(token, given)) {
        return fail(401, `The dashboard needs the admin token in the ${ADMIN_TOKEN_HEADER} header.`);
      }
    }
    if (method !== 'GET' && method !== 'HEAD' && req.headers[DASHBOARD_HEADER] === undefined) {
      return fail(403, `Changes through the dashboard API need the ${DASHBOARD_HEADER} header.`);
    }
    return this.api(req, res, name.slice('api/'.length), method, query);
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
        const refusal = this.hub.connect(req, res);
        if (refusal === 'client') return fail(429, 'This client has the most live dashboards one client may open; close one and reload.', undefined, { 'retry-after': '5' });
        if (refusal) return fail(503, 'Too many live dashboards are open; close one and reload.', undefined, { 'retry-after': '5' });
        return 'done';
      }
      case 'personas':
        if (method === 'PUT') return this.setPersonas(await this.json(req));
        return allow('GET', 'PUT') ?? this.listPersonas();
      case 'chaos':
        if (method === 'PUT') return this.setChaos(await this.json(req));
        return allow('GET', 'PUT') ?? ok(`Chaos ${describeChaos(this.host.chaos.settings)}.`, [this.chaosView(this.host.chaos.settings)]);
      case 'reset': {
        const refused = allow('POST');
        if (refused) return refused;
        const counts = await this.host.reset();
        const { seed, records } = this.host.current();
        return ok(`Reset to seed ${seed} (${records} records); journal emptied.`, [counts]);
      }
      case 'reseed':
        return allow('POST') ?? this.reseed(await this.json(req));
      case 'snapshot':
        if (method === 'PUT') return this.importSnapshot(req);
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

  private async json(req: IncomingMessage): Promise<Json> {
    const raw = await readBody(req, this.host.maxBodyBytes);
    if (!raw) throw new UsageError('The request body is too large.');
    if (raw.length === 0) return {};
    const text = utf8(raw);
    if (text === undefined) throw new UsageError('The request body is not valid UTF-8.');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError('The request body is not well-formed JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('The request body must be a JSON object.');
    return parsed as Json;
  }

  private state(): Json {
    const o = this.host.options();
    const { seed, records } = this.host.current();
    const run = this.runs.latest();
    return {
      version: harnessVersion,
      baseUrl: this.host.baseUrl(),
      basePath: o.basePath,
      clientId: o.clientId,
      // Shown only when it is the built-in demo secret: one given at start is the operator's to share.
      clientSecret: o.clientSecret === DEFAULT_CLIENT_SECRET ? o.clientSecret : null,
      seed,
      records,
      maxRecords: MAX_RECORDS,
      counts: this.host.store.counts(),
      pageSize: o.pageSize,
      personas: o.personas.map((p) => ({ name: p.name, kind: p.kind })),
      chaos: this.chaosView(this.host.chaos.settings),
      adminTokenRequired: this.host.adminToken !== undefined,
      journalSize: o.journalSize,
      liveClients: this.hub.clientCount,
      run: run ?? null,
    };
  }

  /** Every persona's module is loaded the first time a page asks for the list, not when the simulator starts. */
  private async listPersonas(): Promise<Answer> {
    const personas = await this.personas();
    return ok(`${personas.length} personas.`, personas);
  }

  private async personas(): Promise<Json[]> {
    const { allPersonas } = await import('../personas/index.js');
    const active = new Set(this.host.options().personas.map((p) => p.name));
    return allPersonas().map((p) => ({
      name: p.name, kind: p.kind, description: p.description, breaks: p.breaks ?? [], interprets: p.interprets ?? [], active: active.has(p.name),
    }));
  }

  private async setPersonas(body: Json): Promise<Answer> {
    const { personaByName } = await import('../personas/index.js');
    const names = body['active'];
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
      return fail(400, 'The body must be {"active": ["persona-name", …]}.');
    }
    const unknown = (names as string[]).filter((n) => !personaByName(n));
    if (unknown.length > 0) return fail(400, 'Unknown personas.', unknown.map((n) => `no persona ${JSON.stringify(n)}`));
    const chosen = [...new Set(names as string[])].map((n) => personaByName(n) as Persona);
    this.host.setPersonas(chosen);
    this.hub.changed('state');
    const text = chosen.length === 0 ? 'none' : chosen.map((p) => p.name).join(', ');
    return ok(`Personas now: ${text}.`, await this.personas());
  }

  private chaosView(s: ChaosSettings): Json {
    return { latency: s.latency.map((r) => r.text), errorRate: s.errorRate, dropRate: s.dropRate, seed: s.seed, active: chaosActive(s), text: describeChaos(s) };
  }

  private setChaos(body: Json): Answer {
    const latency = body['latency'];
    if (latency !== undefined && typeof latency !== 'string' && !(Array.isArray(latency) && latency.every((l) => typeof l === 'string'))) {
      return fail(400, 'latency must be a string or a list of strings such as "20-80" or "GET /ats/job-offers=50".');
    }
    const number = (key: string): number | undefined => (typeof body[key] === 'number' ? (body[key] as number) : undefined);
    for (const key of ['errorRate', 'dropRate', 'seed']) {
      if (body[key] !== undefined && typeof body[key] !== 'number') return fail(400, `${key} must be a number.`);
    }
    const current = this.host.chaos.settings;
    // chaosSettings throws a UsageError naming the bad value, answered 400 by handle().
    const next = chaosSettings({
      latency: latency as string | string[] | undefined,
      errorRate: number('errorRate'),
      dropRate: number('dropRate'),
      seed: number('seed') ?? current.seed,
    }, current.seed);
    this.host.chaos.configure(next);
    this.hub.changed('state');
    return ok(`Chaos ${describeChaos(next)}.`, [this.chaosView(next)]);
  }

  private async reseed(body: Json): Promise<Answer> {
    const problems: string[] = [];
    const current = this.host.current();
    const seed = wholeNumber(body['seed'], 'seed', 0, Number.MAX_SAFE_INTEGER, problems) ?? current.seed;
    const records = wholeNumber(body['records'], 'records', 0, MAX_RECORDS, problems) ?? current.records;
    if (problems.length > 0) return fail(400, 'The reseed request is not valid.', problems);
    const counts = await this.host.reseed(seed, records);
    return ok(`Reseeded with seed ${seed}, ${records} records.`, [counts]);
  }

  /** The snapshot as a download: the page fetches it (the admin token goes in a header, never in a link). */
  private exportSnapshot(res: ServerResponse): 'done' {
    const text = this.host.exportSnapshot();
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'application/json',
      'content-disposition': SNAPSHOT_DISPOSITION,
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
    return 'done';
  }

  private async importSnapshot(req: IncomingMessage): Promise<Answer> {
    const receipt = await receiveSnapshot(req, (text) => this.host.importSnapshot(text));
    if ('refused' in receipt) return fail(receipt.outcome === 'payloadTooLarge' ? 413 : 400, receipt.refused, undefined, receipt.headers);
    const { seed, records } = this.host.current();
    const total = Object.values(receipt.imported).reduce((n, c) => n + c, 0);
    return ok(`Snapshot imported: the store holds its ${total} records now (first seeded with seed ${seed}, ${records} records).`, [receipt.imported]);
  }

  private records(resource: string, query: URLSearchParams): Answer {
    if (!isResource(resource)) return fail(404, `No resource ${JSON.stringify(resource)}.`);
    const page = Number(query.get('page') ?? '1');
    const size = Number(query.get('size') ?? '25');
    if (!Number.isSafeInteger(page) || page < 1 || !Number.isSafeInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
      return fail(400, `page must be a whole number from 1, size from 1 to ${MAX_PAGE_SIZE}.`);
    }
    const result = listRecords(this.host.store, resource, { q: query.get('q') ?? '', ref: query.get('ref') ?? '', page, size });
    const { items, ...meta } = result;
    return { status: 200, body: { message: `${result.total} ${resource}${result.partial ? ' (search stopped early)' : ''}.`, data: items, meta } };
  }

  private journalEntry(id: string): Answer {
    const entry = /^\d{1,15}$/.test(id) ? this.hub.entry(Number(id)) : undefined;
    if (!entry) return fail(404, `The journal no longer holds request ${id}: it keeps the latest ${this.host.options().journalSize}.`);
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
    if (this.host.adminToken === undefined) return ok('The report needs no ticket here.', [{ url: path }]);
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
    if (this.host.adminToken !== undefined) {
      const given = req.headers[ADMIN_TOKEN_HEADER];
      const byHeader = typeof given === 'string' && secretsEqual(this.host.adminToken, given);
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
