// The request pipeline: route → authenticate → body → handler → serialize, with the personas' hooks around it.
// Every answer is the spec's JSON envelope; a refusal is thrown as a SimError from whichever stage refuses, and
// anything else thrown is the simulator's own fault (500, logged), never a crash or a stack trace on the wire.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { operations, type Operation } from '../src/spec/index.js';
import { bearerToken, type Evictions, type TokenStore } from './auth.js';
import { RETRY_AFTER_SECONDS, delay, type Chaos, type ChaosDecision } from './chaos.js';
import type { AuthVerdict, RawResponse, RequestContext, SimResponse } from './context.js';
import { SimError, errorBody } from './envelope.js';
import { HANDLERS } from './handlers/index.js';
import { bodyJson } from './json.js';
import { Journal, maskSecrets } from './journal.js';
import type { ResolvedOptions } from './options.js';
import type { Persona, PersonaHooks } from './personas/types.js';
import { Router } from './router.js';
import type { Store } from './store.js';
import { RateLimited, type RateLimits } from './rate-limit.js';
import { ClientGone, queryIsUtf8, readRequestBody } from './request-body.js';

export interface PipelineState {
  /** Replaced as a whole when personas are switched at runtime; a request keeps the options it started with. */
  options: ResolvedOptions;
  readonly store: Store;
  readonly tokens: TokenStore;
  readonly journal: Journal;
  baseUrl: string;
  /** Latency and chaos, decided per API request before routing. */
  readonly chaos?: Chaos;
  /** The per-token buckets of the rate limit (options.rateLimit); none when the simulator never limits. */
  readonly rateLimits?: RateLimits;
  /** Called after each journal entry is added (the dashboard's live journal). */
  readonly journaled?: () => void;
}

/** The hooks of the personas a request started under. */
interface Hooks {
  readonly list: readonly PersonaHooks[];
  /** Hooks may change the body in place, so they get a copy that shares nothing with the store. */
  readonly copy: boolean;
}

/** The journal's note on a token request that made room for its token. */
function evictionNote(e: Evictions, cap: number): string {
  const parts = [e.expired ? `${e.expired} expired token(s)` : '', e.live ? `${e.live} live token(s), the oldest (none had expired)` : ''].filter(Boolean);
  return `The token store was full (${cap} tokens): evicted ${parts.join(' and ')} to make room.`;
}

const CHALLENGE = 'Bearer realm="rdx"';
const REFUSALS: Readonly<Record<Exclude<AuthVerdict, { ok: true }>['reason'], { message: string; challenge: string }>> = {
  missing: {
    message: 'A bearer token is required: send Authorization: Bearer <access_token>, with a token from POST /oauth2/token.',
    challenge: CHALLENGE,
  },
  query: {
    message: 'The access token must be sent in the Authorization header; an access_token query parameter is not accepted.',
    challenge: CHALLENGE,
  },
  invalid: {
    message: 'The access token is not valid.',
    challenge: `${CHALLENGE}, error="invalid_token", error_description="The access token is not valid"`,
  },
  expired: {
    message: 'The access token has expired; request a new one.',
    challenge: `${CHALLENGE}, error="invalid_token", error_description="The access token expired"`,
  },
};

/** Operation kinds that never write, so they need no transaction. */
const READ_ONLY: ReadonlySet<string> = new Set(['get', 'list']);

export class Pipeline {
  private readonly router = new Router(operations());
  private hooksFor: readonly Persona[] | undefined;
  private hooks: Hooks = { list: [], copy: false };

  constructor(private readonly state: PipelineState) {
    const missing = operations().filter((op) => !HANDLERS[op.operationId]).map((op) => op.operationId);
    if (missing.length > 0) throw new Error(`rdx simulator: no handler for ${missing.join(', ')}`);
  }

  /** The hooks of the current personas, rebuilt only when the persona list is replaced. */
  private currentHooks(): Hooks {
    const personas = this.state.options.personas;
    if (personas !== this.hooksFor) {
      const list = personas.map((p) => p.hooks);
      this.hooks = { list, copy: list.some((h) => h.afterHandler || h.serialize) };
      this.hooksFor = personas;
    }
    return this.hooks;
  }

  /** The API path of a request path, or undefined when it lies outside the base path. */
  apiPath(rawPath: string): string | undefined {
    const base = this.state.options.basePath;
    if (base === '') return rawPath;
    return rawPath.startsWith(`${base}/`) ? rawPath.slice(base.length) : undefined;
  }

  handle(req: IncomingMessage, res: ServerResponse, rawPath: string, query: URLSearchParams): void | Promise<void> {
    const started = performance.now();
    const arrivedAt = this.state.options.now();
    const decision = this.state.chaos?.decide(req.method ?? 'GET', this.apiPath(rawPath) ?? rawPath);
    if (decision) return this.handleChaos(decision, req, res, rawPath, query, started, arrivedAt);
    return this.answer(req, res, rawPath, query, started, arrivedAt);
  }

  /** Waits out the added latency, then drops the connection, answers 503, or goes on as usual. */
  private async handleChaos(
    decision: ChaosDecision, req: IncomingMessage, res: ServerResponse, rawPath: string, query: URLSearchParams,
    started: number, arrivedAt: number,
  ): Promise<void> {
    await delay(decision.delayMs, res);
    if (res.destroyed) return;
    if (decision.fault === 'none') return this.answer(req, res, rawPath, query, started, arrivedAt);
    let body: string | undefined;
    if (decision.fault === 'drop') req.socket.destroy();
    else {
      body = JSON.stringify(errorBody(`The service is unavailable for a moment (simulated: --error-rate); retry after ${RETRY_AFTER_SECONDS} s.`));
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_SECONDS), 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    }
    // Status 0: no answer was sent.
    this.state.journal.add({
      arrivedAt, method: req.method ?? 'GET', url: req.url ?? '', operationId: null, status: body === undefined ? 0 : 503,
      latencyMs: Math.round((performance.now() - started) * 100) / 100, clientId: null, rawHeaders: req.rawHeaders,
      requestBody: undefined, responseBody: body,
    }, false);
    this.state.journaled?.();
  }

  private answer(req: IncomingMessage, res: ServerResponse, rawPath: string, query: URLSearchParams, started: number, arrivedAt: number): void | Promise<void> {
    const path = this.apiPath(rawPath);
    const hooks = this.currentHooks();
    let undo: (() => void) | undefined;
    const ctx: RequestContext = {
      req, res, method: req.method ?? 'GET', rawPath, path: path ?? rawPath, query, headers: req.headers,
      store: this.state.store, tokens: this.state.tokens, options: this.state.options, baseUrl: this.state.baseUrl,
      stage: 'request', operation: undefined, params: {}, clientId: undefined, rawBody: undefined, body: undefined,
      rollback: () => undo?.(),
    };
    // The handler stage hands over its transaction's undo, which ctx.rollback() then runs.
    const setUndo = (fn: () => void): void => {
      undo = fn;
    };
    const fail = (error: unknown): SimResponse => {
      ctx.rollback();
      return this.failure(ctx, error);
    };
    if (hooks.list.length > 0) return this.handleWithHooks(ctx, hooks, path, setUndo, fail, started, arrivedAt);
    // Without personas nothing is awaited unless a body has to be read: a GET is answered in the same tick.
    let produced: SimResponse | Promise<SimResponse>;
    try {
      produced = this.produce(ctx, path, setUndo);
    } catch (error) {
      produced = fail(error);
    }
    if (!(produced instanceof Promise)) {
      // A read answers stored records as they are (no persona can have changed them on this path).
      const read = ctx.operation !== undefined && READ_ONLY.has(ctx.operation.kind);
      this.write(ctx, this.serialize(produced, read), started, arrivedAt);
      return;
    }
    return produced.then(
      (response) => this.write(ctx, this.serialize(response), started, arrivedAt),
      (error: unknown) => {
        if (!(error instanceof ClientGone)) this.write(ctx, this.serialize(fail(error)), started, arrivedAt);
      },
    );
  }

  private async handleWithHooks(
    ctx: RequestContext, hooks: Hooks, path: string | undefined, setUndo: (undo: () => void) => void,
    fail: (error: unknown) => SimResponse, started: number, arrivedAt: number,
  ): Promise<void> {
    let response: SimResponse;
    try {
      response = await this.produceWithHooks(ctx, hooks.list, path, setUndo);
    } catch (error) {
      if (error instanceof ClientGone) return;
      response = fail(error);
    }
    let raw: RawResponse | 'sent';
    try {
      raw = await this.serializeWithHooks(ctx, hooks.list, await this.after(ctx, hooks, response));
    } catch (error) {
      raw = this.serialize(fail(error));
    }
    this.write(ctx, raw, started, arrivedAt);
  }

  /** The pipeline without personas. */
  private produce(ctx: RequestContext, path: string | undefined, setUndo: (undo: () => void) => void): SimResponse | Promise<SimResponse> {
    ctx.stage = 'route';
    const op = this.route(ctx, path);
    ctx.stage = 'authenticate';
    if (op.kind !== 'token') {
      this.admit(ctx, this.verdict(ctx));
      this.limit(ctx);
    }
    ctx.stage = 'body';
    if (op.requestSchema) return readRequestBody(ctx, op, this.state.options.maxBodyBytes, []).then(() => this.runHandler(ctx, op, setUndo));
    return this.runHandler(ctx, op, setUndo);
  }

  /** The same stages as produce(), with the personas' hooks between them. */
  private async produceWithHooks(ctx: RequestContext, list: readonly PersonaHooks[], path: string | undefined, setUndo: (undo: () => void) => void): Promise<SimResponse> {
    for (const hooks of list) {
      const early = await hooks.onRequest?.(ctx);
      if (early) return early;
    }
    ctx.stage = 'route';
    const op = this.route(ctx, path);
    ctx.stage = 'authenticate';
    if (op.kind !== 'token') {
      let verdict = this.verdict(ctx);
      for (const hooks of list) if (hooks.authenticate) verdict = await hooks.authenticate(ctx, verdict);
      this.admit(ctx, verdict);
      this.limit(ctx);
    }
    ctx.stage = 'body';
    if (op.requestSchema) await readRequestBody(ctx, op, this.state.options.maxBodyBytes, list);
    for (const hooks of list) {
      const early = await hooks.beforeHandler?.(ctx);
      if (early) return early;
    }
    return this.runHandler(ctx, op, setUndo);
  }

  private runHandler(ctx: RequestContext, op: Operation, setUndo: (undo: () => void) => void): SimResponse {
    ctx.stage = 'handler';
    const handler = HANDLERS[op.operationId] as (ctx: RequestContext) => SimResponse;
    if (READ_ONLY.has(op.kind)) return handler(ctx);
    const tx = this.state.store.transaction(() => handler(ctx));
    setUndo(tx.undo);
    return tx.result;
  }

  private route(ctx: RequestContext, path: string | undefined): Operation {
    const url = ctx.req.url ?? '';
    const q = url.indexOf('?');
    if (q !== -1 && !queryIsUtf8(url.slice(q + 1))) throw new SimError('validation', 'The query string has a percent-escape that is not UTF-8.');
    const match = path === undefined ? { kind: 'none' as const } : this.router.match(ctx.method, path);
    switch (match.kind) {
      case 'found':
        ctx.operation = match.operation;
        ctx.params = match.params;
        return match.operation;
      case 'method':
        throw new SimError('methodNotAllowed', `${ctx.rawPath} does not take ${ctx.method}; it takes ${match.allow.join(', ')}.`, undefined, {
          allow: match.allow.join(', '),
        });
      case 'bad':
        throw new SimError('validation', `The path is malformed: ${match.message}.`);
      case 'none':
        throw new SimError('notFound', `No such endpoint: ${ctx.method} ${ctx.rawPath}.`);
    }
  }

  private verdict(ctx: RequestContext): AuthVerdict {
    const header = ctx.headers.authorization;
    const token = bearerToken(header);
    if (token !== undefined) {
      const check = this.state.tokens.check(token);
      return check.ok ? { ok: true, clientId: check.clientId } : { ok: false, reason: check.reason };
    }
    if (header && /^Bearer(\s|$)/i.test(header)) return { ok: false, reason: 'invalid' };
    return { ok: false, reason: ctx.query.has('access_token') ? 'query' : 'missing' };
  }

  private admit(ctx: RequestContext, verdict: AuthVerdict): void {
    if (!verdict.ok) {
      const refusal = REFUSALS[verdict.reason];
      throw new SimError('unauthorized', refusal.message, undefined, { 'www-authenticate': refusal.challenge });
    }
    ctx.clientId = verdict.clientId;
  }

  /** Counts an authenticated request against its token's rate limit; throws RateLimited when the bucket is empty. */
  private limit(ctx: RequestContext): void {
    const settings = this.state.options.rateLimit;
    const token = bearerToken(ctx.headers.authorization) ?? ctx.query.get('access_token') ?? undefined;
    if (!settings || !this.state.rateLimits || token === undefined) return;
    this.state.rateLimits.take(token, settings, this.state.options.now(), ctx.method);
  }

  private async after(ctx: RequestContext, active: Hooks, response: SimResponse): Promise<SimResponse> {
    let current = active.copy ? { ...response, headers: { ...response.headers }, body: structuredClone(response.body) } : response;
    for (const hooks of active.list) {
      const replaced = await hooks.afterHandler?.(ctx, current);
      if (replaced) current = replaced;
    }
    return current;
  }

  private failure(ctx: RequestContext, error: unknown): SimResponse {
    if (error instanceof SimError) return error.toResponse();
    if (error instanceof RateLimited) return { status: 429, outcome: 'throttled', headers: { 'retry-after': error.retryAfter }, body: error.body() };
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`rdx simulator: internal error on ${ctx.method} ${maskSecrets(ctx.req.url ?? '')}: ${message}\n`);
    if (process.env['RDX_DEBUG'] && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    // 500 is not an outcome of the register: it is the simulator's own bug, not an answer the spec leaves open.
    return { status: 500, outcome: 'internal', headers: {}, body: errorBody('The simulator failed on this request.', [message]) };
  }

  private serialize(response: SimResponse, read = false): RawResponse {
    try {
      return {
        status: response.status,
        headers: { 'content-type': 'application/json', ...response.headers },
        body: bodyJson(response.body, read),
        value: response.body,
      };
    } catch (error) {
      const message = `The simulator could not serialize its answer: ${(error as Error).message}`;
      return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify(errorBody(message)) };
    }
  }

  private async serializeWithHooks(ctx: RequestContext, list: readonly PersonaHooks[], response: SimResponse): Promise<RawResponse | 'sent'> {
    for (const hooks of list) {
      const raw = await hooks.serialize?.(ctx, response);
      if (raw) return raw;
    }
    return this.serialize(response);
  }

  private write(ctx: RequestContext, raw: RawResponse | 'sent', started: number, arrivedAt: number): void {
    const { res, req } = ctx;
    const isToken = ctx.operation?.kind === 'token';
    const evicted = isToken ? this.state.tokens.takeEvictions() : undefined;
    if (raw !== 'sent' && !res.headersSent && !res.destroyed) {
      raw.headers['content-length'] = String(Buffer.byteLength(raw.body));
      res.writeHead(raw.status, raw.headers);
      res.end(raw.body);
    }
    this.state.journal.add({
      arrivedAt,
      method: ctx.method,
      url: req.url ?? '',
      operationId: ctx.operation?.operationId ?? null,
      status: raw === 'sent' ? res.statusCode : raw.status,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      clientId: ctx.clientId ?? null,
      rawHeaders: req.rawHeaders,
      requestBody: ctx.rawBody,
      responseBody: raw === 'sent' ? undefined : raw.value ? { value: raw.value } : raw.body,
      note: evicted ? evictionNote(evicted, this.state.tokens.cap) : undefined,
    }, isToken);
    this.state.journaled?.();
  }
}
