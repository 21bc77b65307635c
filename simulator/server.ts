// The request pipeline: one ordered list of stages, route → authenticate → body → handler → serialize, into which
// the personas' hooks are put when the personas change (Stages). A request runs it synchronously until a stage
// returns a promise: without personas a GET is answered in the tick it arrived in.
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
import { bodyJson, copyBody } from './json.js';
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

type Awaitable<T> = T | Promise<T>;

/** What the stages of one request share besides its context. */
interface Pass {
  /** The API path, or undefined when the request lies outside the base path. */
  readonly path: string | undefined;
  /** Undoes the handler's store writes (ctx.rollback()); set when the handler ran. */
  undo?: () => void;
}

/** A stage before the response: it answers, and the stages after it are skipped, or returns nothing to go on. */
type RequestStage = (ctx: RequestContext, pass: Pass) => Awaitable<SimResponse | void>;

/** The pipeline under the personas a request started with. */
interface Stages {
  /** In order: onRequest hooks, route, authenticate, body, beforeHandler hooks, the handler (which always answers). */
  readonly request: readonly RequestStage[];
  /** The personas with afterHandler hooks, then with serialize hooks, each in the order given. */
  readonly afterHandler: readonly PersonaHooks[];
  readonly serialize: readonly PersonaHooks[];
  /** No persona hook at all: a read answers stored records from their cached JSON. */
  readonly plain: boolean;
}

/** Runs the request stages from `from` until one answers: synchronously until a stage returns a promise. */
function runStages(stages: readonly RequestStage[], ctx: RequestContext, pass: Pass, from = 0): SimResponse | Promise<SimResponse> {
  for (let i = from; i < stages.length; i++) {
    const out = (stages[i] as RequestStage)(ctx, pass);
    if (out instanceof Promise) return out.then((answered) => answered ?? runStages(stages, ctx, pass, i + 1));
    if (out) return out;
  }
  throw new Error('rdx simulator: no stage of the pipeline answered');
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
  /** The stages, and the persona list they were built for. */
  private built?: { personas: readonly Persona[]; stages: Stages };

  constructor(private readonly state: PipelineState) {
    const missing = operations().filter((op) => !HANDLERS[op.operationId]).map((op) => op.operationId);
    if (missing.length > 0) throw new Error(`rdx simulator: no handler for ${missing.join(', ')}`);
  }

  /** The stages under the current personas, rebuilt only when the persona list is replaced. */
  private currentStages(): Stages {
    const { personas } = this.state.options;
    if (this.built?.personas !== personas) this.built = { personas, stages: this.build(personas) };
    return this.built.stages;
  }

  /** The one list of stages, with the hooks of these personas put in, each where the hook's name says. */
  private build(personas: readonly Persona[]): Stages {
    const hooks = personas.map((p) => p.hooks);
    const authenticate = hooks.filter((h) => h.authenticate);
    const beforeValidation = hooks.filter((h) => h.beforeValidation);
    return {
      request: [
        ...hooks.filter((h) => h.onRequest).map((h): RequestStage => (ctx) => h.onRequest?.(ctx)),
        (ctx, pass) => this.route(ctx, pass.path),
        (ctx) => this.authenticate(ctx, authenticate),
        (ctx) => {
          ctx.stage = 'body';
          const op = ctx.operation as Operation;
          if (op.requestSchema) return readRequestBody(ctx, op, this.state.options.maxBodyBytes, beforeValidation);
        },
        ...hooks.filter((h) => h.beforeHandler).map((h): RequestStage => (ctx) => h.beforeHandler?.(ctx)),
        (ctx, pass) => this.runHandler(ctx, pass),
      ],
      afterHandler: hooks.filter((h) => h.afterHandler),
      serialize: hooks.filter((h) => h.serialize),
      plain: hooks.length === 0,
    };
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
    const stages = this.currentStages();
    const pass: Pass = { path };
    const ctx: RequestContext = {
      req, res, method: req.method ?? 'GET', rawPath, path: path ?? rawPath, query, headers: req.headers,
      store: this.state.store, tokens: this.state.tokens, options: this.state.options, baseUrl: this.state.baseUrl,
      stage: 'request', operation: undefined, params: {}, clientId: undefined, rawBody: undefined, body: undefined,
      rollback: () => pass.undo?.(),
    };
    const fail = (error: unknown): SimResponse => {
      ctx.rollback();
      return this.failure(ctx, error);
    };
    let produced: SimResponse | Promise<SimResponse>;
    try {
      produced = runStages(stages.request, ctx, pass);
    } catch (error) {
      produced = fail(error);
    }
    if (!(produced instanceof Promise)) return this.respond(ctx, stages, produced, fail, started, arrivedAt);
    return produced.then(
      (response) => this.respond(ctx, stages, response, fail, started, arrivedAt),
      (error: unknown) => {
        if (!(error instanceof ClientGone)) return this.respond(ctx, stages, fail(error), fail, started, arrivedAt);
      },
    );
  }

  /** The response through the afterHandler and serialize hooks, if any, written and journaled. */
  private respond(ctx: RequestContext, stages: Stages, response: SimResponse, fail: (error: unknown) => SimResponse,
    started: number, arrivedAt: number): void | Promise<void> {
    if (stages.afterHandler.length === 0 && stages.serialize.length === 0) {
      const read = stages.plain && ctx.operation !== undefined && READ_ONLY.has(ctx.operation.kind);
      return this.write(ctx, this.serialize(response, read ? 'stored' : 'list'), started, arrivedAt);
    }
    return this.afterHooks(ctx, stages, response).then(
      (raw) => this.write(ctx, raw, started, arrivedAt),
      (error: unknown) => this.write(ctx, this.serialize(fail(error)), started, arrivedAt),
    );
  }

  /** Hooks may change the body in place, so they get a copy that shares nothing with the store. */
  private async afterHooks(ctx: RequestContext, stages: Stages, response: SimResponse): Promise<RawResponse | 'sent'> {
    let current = { ...response, headers: { ...response.headers }, body: copyBody(response.body) };
    for (const hooks of stages.afterHandler) {
      const replaced = await hooks.afterHandler?.(ctx, current);
      if (replaced) current = replaced;
    }
    for (const hooks of stages.serialize) {
      const raw = await hooks.serialize?.(ctx, current);
      if (raw) return raw;
    }
    return this.serialize(current, 'copied');
  }

  private runHandler(ctx: RequestContext, pass: Pass): SimResponse {
    ctx.stage = 'handler';
    const op = ctx.operation as Operation;
    const handler = HANDLERS[op.operationId] as (ctx: RequestContext) => SimResponse;
    if (READ_ONLY.has(op.kind)) return handler(ctx);
    const tx = this.state.store.transaction(() => handler(ctx));
    pass.undo = tx.undo;
    return tx.result;
  }

  /** Checks the bearer token (through the personas' authenticate hooks) and counts the request against its rate limit. */
  private authenticate(ctx: RequestContext, hooks: readonly PersonaHooks[]): void | Promise<void> {
    ctx.stage = 'authenticate';
    if (ctx.operation?.kind === 'token') return;
    const verdict = this.verdict(ctx);
    if (hooks.length === 0) return this.admit(ctx, verdict);
    return this.authenticateWithHooks(ctx, hooks, verdict);
  }

  private async authenticateWithHooks(ctx: RequestContext, hooks: readonly PersonaHooks[], verdict: AuthVerdict): Promise<void> {
    let current = verdict;
    for (const h of hooks) current = (await h.authenticate?.(ctx, current)) ?? current;
    this.admit(ctx, current);
  }

  private route(ctx: RequestContext, path: string | undefined): void {
    ctx.stage = 'route';
    const url = ctx.req.url ?? '';
    const q = url.indexOf('?');
    if (q !== -1 && !queryIsUtf8(url.slice(q + 1))) throw new SimError('validation', 'The query string has a percent-escape that is not UTF-8.');
    const match = path === undefined ? { kind: 'none' as const } : this.router.match(ctx.method, path);
    switch (match.kind) {
      case 'found':
        ctx.operation = match.operation;
        ctx.params = match.params;
        return;
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

  /** Refuses a request the verdict refuses; counts one it admits against the rate limit. */
  private admit(ctx: RequestContext, verdict: AuthVerdict): void {
    if (!verdict.ok) {
      const refusal = REFUSALS[verdict.reason];
      throw new SimError('unauthorized', refusal.message, undefined, { 'www-authenticate': refusal.challenge });
    }
    ctx.clientId = verdict.clientId;
    this.limit(ctx);
  }

  /** Counts an authenticated request against its token's rate limit; throws RateLimited when the bucket is empty. */
  private limit(ctx: RequestContext): void {
    const settings = this.state.options.rateLimit;
    const token = bearerToken(ctx.headers.authorization) ?? ctx.query.get('access_token') ?? undefined;
    if (!settings || !this.state.rateLimits || token === undefined) return;
    this.state.rateLimits.take(token, settings, this.state.options.now(), ctx.method);
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

  /**
   * What the body's records are, for bodyJson's cache of record texts: `stored` ones (the answer to a read), those of
   * a list page if it is one (`list`), or `copied` for the persona hooks, new objects that no later answer serves, so
   * caching their text would only fill the cache.
   */
  private serialize(response: SimResponse, records: 'stored' | 'list' | 'copied' = 'list'): RawResponse {
    try {
      return {
        status: response.status,
        headers: { 'content-type': 'application/json', ...response.headers },
        body: records === 'copied' ? JSON.stringify(response.body) : bodyJson(response.body, records === 'stored'),
        value: response.body,
      };
    } catch (error) {
      const message = `The simulator could not serialize its answer: ${(error as Error).message}`;
      return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify(errorBody(message)) };
    }
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
