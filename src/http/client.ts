// The harness's only door to the network. Every request goes through `send`, which never throws for what the
// target does (timeouts, resets, garbage, huge bodies): those become a recorded transport error or body problem.
import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { undici } from './undici.js';
import { bodyScan } from '../core/json-scan.js';
import { awaiting } from '../core/pending.js';
import type { Exchange, TransportErrorKind } from '../core/results.js';
import { UsageError } from '../errors.js';
import { ACCEPT_ENCODING, codingsOf, decodeBody, unlabelledCoding } from './decode.js';
import { stripUserinfo } from './redact.js';
import { utf8Text } from '../core/utf8.js';
import {
  DEFAULT_MAX_TOTAL_WAIT_MS, DEFAULT_MAX_WAIT_MS, MAX_THROTTLED_ANSWERS, RateLimiter, isThrottled, sleep, throttleWaitMs,
  type ThrottlePolicy, type TransportStats,
} from './throttle.js';

export interface HttpOptions {
  /**
   * The only origins (scheme, host, port) requests may go to: the base URL's and the token URL's, as the user
   * named them. A URL a target hands over (a next_link, a Location) that leaves them is never requested, so
   * the token and the client secret never travel to a host the user did not name.
   */
  origins: readonly string[];
  /** Per-request time limit in ms, covering connect, headers and the whole body. */
  timeoutMs: number;
  /** Responses larger than this are cut and recorded as a body problem. */
  maxResponseBytes: number;
  insecure?: boolean;
  /** PEM file of extra certificate authorities. */
  caFile?: string;
  /** HTTP(S) proxy URL. */
  proxy?: string;
  /**
   * Extra attempts after a transport error, for requests safe to repeat only (SAFE_TO_REPEAT): a POST or PATCH whose
   * connection broke may have been stored, so it is never sent twice. Never on an HTTP answer, however bad.
   */
  retries?: number;
  /** Client-side cap in requests per second for the whole run (--rate, http.rateLimit); none by default. */
  rateLimit?: number;
  /** Caps on waiting after throttled answers (429, 503 with Retry-After). */
  throttle?: Partial<ThrottlePolicy>;
  /** The endpoint a request addresses, to count throttled answers per endpoint; "other" when undefined. */
  endpointOf?: (method: string, url: string) => string | undefined;
  /** Aborted when the run is stopped (deadline or signal): requests under way end at once, and none is sent after. */
  halt?: AbortSignal;
}

/** A throttled answer met on the way to an answer, kept to be judged for the error envelope. */
export interface ThrottledAnswer {
  endpoint: string | undefined;
  exchange: Exchange;
}

export interface OutgoingRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Already-serialised body; a JSON value is serialised by the caller so malformed bodies can be sent too. */
  body?: string;
  /** Which credential the request carries (a step's auth mode), recorded for reproduction lines. */
  auth?: string;
}

/**
 * Methods whose request may be sent again after a broken connection (RFC 9110 §9.2.2, idempotent): a repeat leaves
 * the target as one request would. POST and PATCH are not: the target may have stored the first.
 */
export const SAFE_TO_REPEAT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** Transport errors where the request never reached the target, so even a POST can be sent again. */
const NEVER_SENT: ReadonlySet<TransportErrorKind> = new Set(['connection-refused', 'dns']);

/** Throttled answers kept for judging until the runner takes them (takeThrottled): one request's worth and more. */
const THROTTLED_KEPT = 32;

export class HttpClient {
  private readonly dispatcher: Dispatcher;

  private readonly limiter: RateLimiter;

  private readonly policy: ThrottlePolicy;

  /** The counts of transportStats(); its times are the wall clocks below. */
  private readonly stats: Pick<TransportStats, 'throttled' | 'gaveUp'> = { throttled: {}, gaveUp: 0 };

  /**
   * Wall-clock time during which at least one request waited: on the pace or after a throttled answer (the run's
   * wait budget, http.maxTotalWaitMs), and each of the two alone (the report's pacedMs and waitedMs).
   */
  private readonly waiting = new WallClock();
  private readonly pacing = new WallClock();
  private readonly throttleWaits = new WallClock();

  /**
   * Throttled answers of requests sent outside any case since they were last taken. A case passes its own list to
   * every request it sends (token requests included), so that cases side by side never take one another's. Passed
   * rather than looked up in an AsyncLocalStorage: on Node 20 and 22 its promise hooks slow every promise of the run.
   */
  private readonly throttledAnswers: ThrottledAnswer[] = [];

  private readonly origins: ReadonlySet<string>;

  constructor(readonly options: HttpOptions) {
    this.origins = new Set(options.origins.map(originOf));
    const connect = {
      rejectUnauthorized: !options.insecure,
      ...(options.caFile ? { ca: readCa(options.caFile) } : {}),
    };
    // Short keep-alive: targets are often half-built servers that drop idle sockets without notice.
    const common = { keepAliveTimeout: 4_000, keepAliveMaxTimeout: 10_000, connections: 16, connect };
    this.dispatcher = options.proxy ? new undici.ProxyAgent({ uri: proxyUrl(options.proxy), ...common, requestTls: connect }) : new undici.Agent(common);
    this.limiter = new RateLimiter(options.rateLimit);
    this.policy = {
      maxWaitMs: options.throttle?.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
      maxTotalWaitMs: options.throttle?.maxTotalWaitMs ?? DEFAULT_MAX_TOTAL_WAIT_MS,
    };
    this.destroyOnHalt();
  }

  /** What the run met from a rate-limiting target so far (RunReport.transport). */
  transportStats(): TransportStats {
    const rate = this.limiter.current;
    return {
      ...this.stats, throttled: { ...this.stats.throttled }, waitedMs: Math.round(this.throttleWaits.ms()), pacedMs: Math.round(this.pacing.ms()),
      ...(rate !== undefined ? { rateLimit: Math.round(rate * 10) / 10 } : {}),
    };
  }

  /**
   * The throttled answers met since the last call, with their endpoint, for judging; each is handed over once: those
   * of the requests sent with that list (a case's), else those of the requests sent outside any case.
   */
  takeThrottled(throttled: ThrottledAnswer[] = this.throttledAnswers): ThrottledAnswer[] {
    return throttled.splice(0);
  }

  /**
   * How long, in wall-clock ms, at least one request of the run has been waiting on the target's rate limit (the
   * pace, or a throttled answer's wait): unlike transportStats' sums, never more than the time elapsed, however many
   * requests wait side by side.
   */
  waitingMs(): number {
    return this.waiting.ms();
  }

  private whileWaiting<T>(wait: Promise<T>, kind: WallClock): Promise<T> {
    return this.waiting.during(kind.during(wait));
  }

  /**
   * The run stopped: every connection is destroyed at once, so nothing the target does (or a request undici left
   * waiting for a slot) can hold the run; a request after that is not sent (see `send`).
   */
  private destroyOnHalt(): void {
    const halt = this.options.halt;
    if (!halt) return;
    const destroy = (): void => void this.dispatcher.destroy().catch(() => undefined);
    if (halt.aborted) destroy();
    else halt.addEventListener('abort', destroy, { once: true });
  }

  /** Whether a URL lies within the origins the user named (userinfo aside); false for what does not parse. */
  allows(url: string): boolean {
    try {
      return this.origins.has(originOf(url));
    } catch {
      return false;
    }
  }

  /**
   * Sends one request and records the exchange. A throttled answer (429, 503 with Retry-After) is not the answer: it
   * is waited out and the request sent again, within the caps. After a transport error, a request safe to repeat is
   * sent again up to `retries` times. The throttled answers met on the way go to `throttled` (a case's own list).
   * `dispatched` is called each time the request is handed to undici, before its answer: work the caller puts off
   * until then (a setImmediate it queues runs once undici has written the request) overlaps the target's.
   */
  async send(step: string, req: OutgoingRequest, throttled: ThrottledAnswer[] = this.throttledAnswers, dispatched?: () => void): Promise<Exchange> {
    if (!this.allows(req.url)) return foreign(step, req, [...this.origins]);
    const halt = this.options.halt;
    if (halt?.aborted) return stopped(step, req, halt);
    const refused = unsendableHeader(req.headers ?? {});
    if (refused) return unsendable(step, req, refused);
    const retries = Math.max(0, this.options.retries ?? 0);
    let resent = 0;
    let throttledCount = 0;
    let waited = 0;
    for (;;) {
      // Once the run's wait budget is spent, it no longer holds itself to a pace either: a target that slowed it to a
      // crawl (Retry-After: 0 to most requests) must not stretch a run to hours, and its throttled answers are given up.
      if (this.waiting.ms() < this.policy.maxTotalWaitMs) await this.whileWaiting(this.limiter.acquire(halt), this.pacing);
      if (halt?.aborted) return stopped(step, req, halt);
      const exchange = await this.sendOnce(step, req, dispatched);
      const res = exchange.response;
      if (res && isThrottled(res.status, res.headers)) {
        // A write answered 503 may have been passed on and stored by a gateway: never sent again (docs/transport.md).
        if (res.status === 503 && !SAFE_TO_REPEAT.has(req.method.toUpperCase())) return writeUnavailable(exchange, req.method);
        throttledCount += 1;
        // Only a throttled answer needs its endpoint: asked for every request, it was two URL parses each.
        this.noteThrottled(this.options.endpointOf?.(req.method, req.url), exchange, throttled);
        const wait = Math.min(throttleWaitMs(res.headers, throttledCount - 1), this.policy.maxWaitMs);
        if (throttledCount >= MAX_THROTTLED_ANSWERS || this.waiting.ms() + wait > this.policy.maxTotalWaitMs) {
          this.stats.gaveUp += 1;
          return gaveUp(exchange, throttledCount, waited, this.policy);
        }
        await this.whileWaiting(awaiting(`a ${wait} ms wait asked for by a throttled answer (${res.status})`, sleep(wait, halt)), this.throttleWaits);
        waited += wait;
        if (halt?.aborted) return stopped(step, req, halt);
        continue;
      }
      if (res) this.limiter.relax();
      if (throttledCount > 0) exchange.throttled = { answers: throttledCount, waitedMs: Math.round(waited) };
      const error = exchange.transportError;
      if (!error || halt?.aborted || resent >= retries) return notResent(exchange, req.method, retries);
      if (!SAFE_TO_REPEAT.has(req.method.toUpperCase()) && !NEVER_SENT.has(error.kind)) return notResent(exchange, req.method, retries);
      resent += 1;
    }
  }

  /** Counts a throttled answer, slows the run down, and keeps the answer for judging. */
  private noteThrottled(endpoint: string | undefined, exchange: Exchange, kept: ThrottledAnswer[]): void {
    const key = endpoint ?? 'other';
    this.stats.throttled[key] = (this.stats.throttled[key] ?? 0) + 1;
    this.limiter.slowDown();
    if (kept.length < THROTTLED_KEPT) kept.push({ endpoint, exchange });
  }

  private async sendOnce(step: string, req: OutgoingRequest, dispatched?: () => void): Promise<Exchange> {
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const headers = { ...(req.headers ?? {}) };
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'accept-encoding')) headers['accept-encoding'] = ACCEPT_ENCODING;
    // Userinfo is never sent (undici would turn it into Basic credentials) nor recorded.
    const url = stripUserinfo(req.url);
    const recorded: Exchange = {
      step,
      request: { method: req.method, url, headers, ...(req.auth ? { auth: req.auth } : {}), ...(req.body !== undefined ? { body: req.body } : {}) },
      startedAt,
      elapsedMs: 0,
    };
    const { signal, done } = requestSignal(this.options.timeoutMs, this.options.halt);
    try {
      const cap = this.options.maxResponseBytes;
      // Decoding is inside the request's time limit too: stacked or slow codings end with the request.
      const answer = (async () => {
        const res = await undici.request(url, {
          method: req.method as Dispatcher.HttpMethod,
          headers,
          body: req.body,
          dispatcher: this.dispatcher,
          signal,
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
        });
        const { raw, cut } = await readCapped(res.body, cap);
        const responseHeaders = flattenHeaders(res.headers);
        // An empty body (a 204, a HEAD) has nothing to decode, whatever its Content-Encoding says.
        const codings = raw.length > 0 ? codingsOf(responseHeaders['content-encoding']) : [];
        const decoded = codings.length > 0 ? await decodeBody(raw, codings, cap, cut, signal)
          : { text: utf8Text(raw), ...(cut ? { problem: `the body exceeds the ${cap}-byte cap and was cut` } : {}) };
        return { res, raw, responseHeaders, codings, ...decoded };
      })();
      // undici.request has dispatched the request by now (synchronously, up to its first await).
      dispatched?.();
      const { res, raw, responseHeaders, codings, text, problem } = await untilAborted(signal, answer);
      recorded.response = { status: res.statusCode, headers: responseHeaders, body: text, ...(codings.length > 0 ? { contentEncoding: codings.join(', ') } : {}) };
      const parsed = problem ? { problem } : parseJson(recorded.response, codings.length === 0 ? unlabelledCoding(raw) : undefined);
      if ('json' in parsed) recorded.response.json = parsed.json;
      else if (parsed.problem) recorded.response.bodyProblem = parsed.problem;
    } catch (error) {
      recorded.transportError = this.options.halt?.aborted
        ? { kind: 'stopped', message: `no complete answer: the run was stopped (${String(this.options.halt.reason)})` }
        : classify(error, this.options.timeoutMs);
    } finally {
      done();
    }
    recorded.elapsedMs = Math.round((performance.now() - started) * 10) / 10;
    return recorded;
  }

  /** Closes the connections; one still held after the request time limit (a hostile or stuck one) is destroyed. */
  async close(): Promise<void> {
    if (this.options.halt?.aborted) return this.dispatcher.destroy().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.options.timeoutMs);
    });
    const closed = await Promise.race([this.dispatcher.close().then(() => 'closed' as const, () => 'closed' as const), late]);
    clearTimeout(timer);
    if (closed === 'late') await this.dispatcher.destroy().catch(() => undefined);
  }
}

/** The proxy URL, checked: a malformed one is the user's to fix (a usage error), never a crash of the client. */
function proxyUrl(proxy: string): string {
  let url: URL | undefined;
  try {
    url = new URL(proxy);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new UsageError(`--proxy (http.proxy) must be an http:// or https:// URL such as http://proxy.example:3128, not ${JSON.stringify(stripUserinfo(proxy))}`, 'RDX_ERR_CONFIG');
  }
  return proxy;
}

/** Wall-clock time during which at least one of the promises it was given was pending. */
class WallClock {
  private now = 0;
  private since = 0;
  private total = 0;

  ms(): number {
    return this.total + (this.now > 0 ? performance.now() - this.since : 0);
  }

  async during<T>(work: Promise<T>): Promise<T> {
    if (this.now++ === 0) this.since = performance.now();
    try {
      return await work;
    } finally {
      if (--this.now === 0) this.total += performance.now() - this.since;
    }
  }
}

/**
 * The signal of one request: aborted at its time limit (a TimeoutError, as AbortSignal.timeout's) or when the run
 * halts; `done` lets go of its timer and listener. One controller rather than AbortSignal.any over
 * AbortSignal.timeout: a third of the cost a request (measured, 33 → 10 µs), and no timer left for the whole limit.
 */
function requestSignal(timeoutMs: number, halt: AbortSignal | undefined): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no complete answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  // Like AbortSignal.timeout's, the timer alone does not keep the process alive: the request's socket does.
  timer.unref();
  const onHalt = (): void => controller.abort(halt?.reason);
  if (halt?.aborted) onHalt();
  else halt?.addEventListener('abort', onHalt, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      halt?.removeEventListener('abort', onHalt);
    },
  };
}

/**
 * The work's outcome, or a rejection with the signal's reason as soon as it aborts: the request time limit and the
 * run's halt hold even when undici never settles (it did not, for a request waiting for a connection slot).
 */
function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => {
    signal.removeEventListener('abort', onAbort as () => void);
    // What the work does after the abort (a late rejection) is no longer anyone's concern.
    work.catch(() => undefined);
  });
}

/** undici's own rule for header values (RFC 9110 field-value: no CR, LF, NUL, nothing above U+00FF) and names. */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers undici refuses whatever their value (it manages them itself). */
const REFUSED_NAMES = new Set(['transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

/**
 * Why a header cannot be sent (a value with CR, LF or a character above U+00FF, e.g. a token a target handed out),
 * or undefined. Checked before sending: undici refuses such a request, and each refusal used to hold one of its
 * connection slots for good, until every later request waited forever.
 */
export function unsendableHeader(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) return `the header name ${JSON.stringify(name)} is not an HTTP token`;
    if (REFUSED_NAMES.has(name.toLowerCase())) return `the HTTP client does not send a ${name.toLowerCase()} header`;
    const bad = BAD_VALUE.exec(value);
    if (bad) {
      const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      return `the value of header ${name} holds U+${code} at index ${bad.index}, which HTTP does not allow in a header`;
    }
  }
  return undefined;
}

/** The exchange of a request not sent because a header cannot be sent; no header is kept (one may hold a secret). */
function unsendable(step: string, req: OutgoingRequest, why: string): Exchange {
  return {
    step,
    request: { method: req.method, url: req.url, headers: {} },
    transportError: { kind: 'invalid-header', message: `not sent: ${why}` },
    startedAt: new Date().toISOString(),
    elapsedMs: 0,
  };
}

/** scheme://host:port of a URL, default ports made explicit by URL itself; userinfo never counts. */
function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}


/** The exchange of a request that was not sent because its URL leaves the allowed origins; no header is kept. */
function foreign(step: string, req: OutgoingRequest, origins: string[]): Exchange {
  return {
    step,
    request: { method: req.method, url: req.url, headers: {} },
    transportError: { kind: 'foreign-origin', message: `not sent: ${req.url} is outside the target's origin (${origins.join(', ')})` },
    startedAt: new Date().toISOString(),
    elapsedMs: 0,
  };
}

/** The exchange of a request not sent because the run was stopped. */
function stopped(step: string, req: OutgoingRequest, halt: AbortSignal): Exchange {
  return {
    step,
    request: { method: req.method, url: req.url, headers: {} },
    transportError: { kind: 'stopped', message: `not sent: the run was stopped (${String(halt.reason)})` },
    startedAt: new Date().toISOString(),
    elapsedMs: 0,
  };
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--ca ${file}: cannot read the file (${(error as Error).message})`, 'RDX_ERR_CONFIG');
  }
}

/** Reads a body's bytes up to the cap; beyond it the stream is destroyed so an endless body cannot hold the run. */
async function readCapped(body: Dispatcher.ResponseData['body'], cap: number): Promise<{ raw: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > cap) {
      chunks.push(buf.subarray(0, Math.max(0, buf.length - (size - cap))));
      body.destroy();
      return { raw: Buffer.concat(chunks), cut: true };
    }
    chunks.push(buf);
  }
  return { raw: Buffer.concat(chunks), cut: false };
}

/** The exchange of a request given up after throttled answers: no answer, the last throttled one kept as evidence. */
function gaveUp(last: Exchange, answers: number, waitedMs: number, policy: ThrottlePolicy): Exchange {
  const { response: _answer, ...rest } = last;
  return {
    ...rest,
    throttled: { answers, waitedMs: Math.round(waitedMs) },
    transportError: {
      kind: 'throttled',
      message: `no answer: the target answered ${answers} time(s) ${last.response?.status ?? ''} (come back later) and the run gave up ` +
        `after waiting ${Math.round(waitedMs)} ms (at most ${MAX_THROTTLED_ANSWERS} throttled answers per request; ` +
        `http.maxWaitMs ${policy.maxWaitMs}, http.maxTotalWaitMs ${policy.maxTotalWaitMs} for the run)`,
    },
  };
}

/**
 * A POST or PATCH answered 503 with Retry-After: unlike a 429 (RFC 6585: not processed), a 503 may come from a
 * gateway that passed the request on, and the implementation may have stored it; sending it again could store it
 * twice. Recorded as no answer, so the case is not judged on it, and never re-sent.
 */
function writeUnavailable(exchange: Exchange, method: string): Exchange {
  const { response, ...rest } = exchange;
  return {
    ...rest,
    transportError: {
      kind: 'throttled',
      message: `no answer: the target answered ${response?.status ?? 503} (unavailable, come back later) to a ${method.toUpperCase()}, which is not ` +
        'sent again: a gateway may have passed it on and stored it, and a second one could store it twice',
    },
  };
}

/** Says why a request with a transport error was not sent again, when retries were asked for but it was unsafe. */
function notResent(exchange: Exchange, method: string, retries: number): Exchange {
  const error = exchange.transportError;
  if (!error || retries === 0 || SAFE_TO_REPEAT.has(method.toUpperCase()) || NEVER_SENT.has(error.kind) || error.kind === 'stopped') return exchange;
  return { ...exchange, transportError: { ...error, message: `${error.message}; not sent again: a ${method.toUpperCase()} is not safe to repeat (the target may have stored it)` } };
}

/**
 * Deeper JSON is a body problem, not a value: everything downstream (checks, redaction, the report's own
 * JSON.stringify) walks values recursively and would overflow the stack on a hostile 100,000-level body.
 */
export const MAX_JSON_DEPTH = 1_000;

/**
 * The most a body may take once parsed (jsonScan's weight) to be read as JSON. Measured before parsing: a few MiB of
 * `{}` (a gzip answer of 20 KB can decode to 20 MiB of them) take hundreds of MB parsed and ran a run out of memory.
 * A list page of real records weighs about twice its length, so 10 MiB of records still parse; at --concurrency 8
 * the bodies parsed at once stay within a few hundred MB.
 */
export const MAX_PARSED_WEIGHT = 32 * 1024 * 1024;

/** The body as JSON; `unlabelled` names the compression its bytes look like when no Content-Encoding said so. */
function parseJson(response: { body: string }, unlabelled?: string): { json: unknown } | { problem?: string } {
  const text = response.body;
  if (text.length === 0) return { problem: 'the body is empty' };
  const { depth, weight } = bodyScan(response);
  if (depth > MAX_JSON_DEPTH) return { problem: `the body nests deeper than ${MAX_JSON_DEPTH} levels and is not read as JSON` };
  if (weight > MAX_PARSED_WEIGHT) {
    return { problem: `the body would take about ${Math.round(weight / 2 ** 20)} MiB once parsed (${text.length} characters), more than the ${MAX_PARSED_WEIGHT / 2 ** 20} MiB the harness reads as JSON` };
  }
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    if (unlabelled) return { problem: `the body is not JSON: its bytes look ${unlabelled}-compressed, but no Content-Encoding says so` };
    return { problem: `the body is not JSON (${(error as Error).message})` };
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function classify(error: unknown, timeoutMs: number): { kind: TransportErrorKind; message: string } {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const text = e.message ?? String(error);
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || error instanceof undici.errors.HeadersTimeoutError ||
      error instanceof undici.errors.BodyTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` };
  }
  if (code === 'ECONNREFUSED') return { kind: 'connection-refused', message: 'the connection was refused' };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return { kind: 'connection-reset', message: 'the connection was closed before a complete answer' };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'dns', message: `the host name does not resolve (${code})` };
  if (/CERT|SSL|TLS/i.test(code) || /certificate|TLS/i.test(text)) return { kind: 'tls', message: `TLS failed: ${text}` };
  if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_INFO') {
    return { kind: 'protocol', message: `the answer is not valid HTTP (${code}: ${text})` };
  }
  return { kind: 'other', message: code ? `${code}: ${text}` : text };
}
