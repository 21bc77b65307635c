// Building a step's request from its definition and the case's variables, and sending it: the run's token, a retry
// on a revoked token, and the throttled answers met on the way, recorded in the case.
import type { Operation } from '../spec/index.js';
import type { OutgoingRequest } from '../http/client.js';
import { TokenError, bearer } from '../http/auth.js';
import { verdictOf, type CaseResult, type Exchange, type Unlock, type Verdict } from '../core/results.js';
import type { StepDef } from './suite.js';
import { Stop, assertion, type CaseRun } from './case-run.js';
import { unsafeIntegers } from '../core/json-scan.js';

/** How a list of values is written in a query (interpretation REFERENCE_LIST_ENCODING; the first is OpenAPI's default). */
export const LIST_ENCODINGS = ['repeat', 'brackets', 'comma', 'json'] as const;
export type ListEncoding = (typeof LIST_ENCODINGS)[number];
export const isListEncoding = (value: unknown): value is ListEncoding => (LIST_ENCODINGS as readonly unknown[]).includes(value);

const EXPIRED_TOKEN_UNLOCK: Unlock = { unlock: 'fixtures.expiredToken', how: 'give an access token that has expired in the profile (fixtures.expiredToken, as ${env:…})' };

/** The request of a step: its path filled from params, its query, its authorization, its body. */
export async function buildRequest(run: CaseRun, step: StepDef, op: Operation | undefined, body: unknown,
  encoding?: ListEncoding): Promise<OutgoingRequest> {
  const { baseUrl, profile } = run.services;
  const params = (run.resolve(step.params ?? {}) ?? {}) as Record<string, unknown>;
  const template = op?.path ?? step.path ?? '/';
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Stop('error', `suite error: step "${step.name}" gives no value for {${name}}`);
    return encodeURIComponent(String(params[name]));
  });
  const url = new URL(baseUrl.replace(/\/$/, '') + path);
  const query = (run.resolve(step.query ?? {}) ?? {}) as Record<string, unknown>;
  const declared = profile.declared['referenceListEncoding'];
  const lists = encoding ?? (isListEncoding(declared) ? declared : 'repeat');
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) appendList(url.searchParams, name, value.map(String), lists);
    else if (value !== undefined && value !== null) url.searchParams.append(name, String(value));
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const auth = step.auth ?? (op?.endpoint === 1 ? 'none' : 'default');
  if (auth === 'default') headers['authorization'] = bearer(await token(run));
  if (auth === 'header') headers['authorization'] = String(run.resolve(step.authHeader ?? '', { ...run.vars, token: await token(run) }));
  if (auth === 'query') url.searchParams.append('access_token', await token(run));
  if (auth === 'expired') {
    const expired = await run.services.expiredToken(run.throttledAnswers);
    if (typeof expired !== 'string') throw new Stop('skip', expired.unavailable, EXPIRED_TOKEN_UNLOCK);
    headers['authorization'] = bearer(expired);
  }
  let text: string | undefined;
  if (step.rawBody !== undefined) text = String(run.resolve(step.rawBody));
  else if (body !== undefined) text = JSON.stringify(body);
  if (text !== undefined) headers['content-type'] = step.contentType ?? 'application/json';
  Object.assign(headers, run.resolve(step.headers ?? {}) as Record<string, string>);
  return { method: op?.method ?? step.method ?? 'GET', url: url.toString(), headers, auth, ...(text !== undefined ? { body: text } : {}) };
}

/** What the token provider gives; no token is an error of the case. */
async function tokenCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TokenError) throw new Stop('error', `no token: ${error.message}`);
    throw error;
  }
}

/** The run's access token (from its cache); none is an error of the case. */
export const token = (run: CaseRun): Promise<string> => tokenCall(() => run.services.tokens.token(run.throttledAnswers));

/** A GET with the run's token, as a walk or a listing sends it. */
export async function tokenGet(run: CaseRun, url: string): Promise<OutgoingRequest> {
  return { method: 'GET', url, headers: { accept: 'application/json', authorization: bearer(await token(run)) } };
}

/** A write's operation and the body it sent, resolved (its items the objects the run may have spoiled on purpose). */
export interface Write {
  op: Operation;
  body: unknown;
}

/**
 * Sends and records; a request with the run's own token goes through the token provider (a fresh token after a 401).
 * What a write created or deleted goes to the residue ledger as soon as its answer says so, before anything is judged:
 * a case that stops on the answer (a failed setup step, a skip) has still left those records on the target.
 */
export async function send(run: CaseRun, step: StepDef, request: OutgoingRequest, label = step.name, write?: Write): Promise<Exchange> {
  const { http, tokens } = run.services;
  const usesRunToken = (step.auth ?? 'default') === 'default' && request.headers?.['authorization'] !== undefined && step.operation !== 'requestToken';
  const dispatched = (): void => run.requestDispatched();
  const ex = usesRunToken ? await tokenCall(() => tokens.send(label, request, run.throttledAnswers, dispatched))
    : await http.send(label, request, run.throttledAnswers, dispatched);
  recordThrottled(run);
  run.result.exchanges.push(ex);
  if (write) run.services.ledger.record(run.c.id, write.op, ex, write.body, request);
  const unsafe = ex.response ? unsafeIntegers(ex.response.body) : [];
  // Judged as parsed, two such ids could read as one record, and a read by one would name another: a false failure.
  if (unsafe.length > 0) throw new Stop('skip', beyondDoubles(ex, unsafe), BEYOND_DOUBLES);
  return ex;
}

const BEYOND_DOUBLES: Unlock = {
  unlock: 'integers within ±(2^53 - 1)',
  how: 'answer ids and counts within ±(2^53 - 1), the integers RFC 8259 §6 calls interoperable; nothing in the profile makes the harness read larger ones exactly',
};

function beyondDoubles(ex: Exchange, literals: string[]): string {
  const path = URL.canParse(ex.request.url) ? new URL(ex.request.url).pathname : ex.request.url;
  return `the answer to ${ex.request.method} ${path} carries ${literals.join(', ')}${literals.length > 1 ? ', integers' : ', an integer'} beyond `
    + '±(2^53 - 1), which JSON.parse reads as the nearest double: the records it names cannot be told apart or addressed exactly, so the case is not judged (RFC 8259 §6)';
}

/** How a case records a throttled answer it met: the step that met it, marked. */
const THROTTLED_MARK = ' (throttled, sent again)';

/** Whether an exchange of a case is a throttled answer it met on the way (recorded by recordThrottled), not an answer. */
export const isThrottledAnswer = (ex: { step: string } | undefined): boolean => ex?.step.endsWith(THROTTLED_MARK) ?? false;

/**
 * The case's assertions but those on a throttled answer it met (a 429 judged for the error envelope): what the case
 * itself established, whichever of its requests the target throttled, which depends on what ran beside it.
 */
export function ownAssertions(c: Pick<CaseResult, 'assertions' | 'exchanges'>): CaseResult['assertions'] {
  return c.assertions.filter((a) => !isThrottledAnswer(c.exchanges[a.exchange ?? -1]));
}

/** The verdict of a judged case on its own assertions (ownAssertions); an unjudged one's (skip, error) as it is. */
export function ownVerdict(c: Pick<CaseResult, 'assertions' | 'exchanges' | 'level' | 'verdict'>): Verdict {
  return c.verdict === 'fail' || c.verdict === 'warn' || c.verdict === 'pass' ? verdictOf(c.level, ownAssertions(c)) : c.verdict;
}

/** Adds the throttled answers met since the last request (token requests included) to the case, judged once per endpoint. */
function recordThrottled(run: CaseRun): void {
  const { result } = run;
  for (const { exchange, judgements } of run.services.throttled.judge(run.services.http.takeThrottled(run.throttledAnswers), run.throttledFailures)) {
    const index = result.exchanges.push({ ...exchange, step: `${exchange.step}${THROTTLED_MARK}` }) - 1;
    for (const j of judgements) result.assertions.push(assertion({ ...j, exchange: index }));
  }
}

/** The list encodings a step's request is sent with: the declared one, else all of LIST_ENCODINGS when the step tries them. */
export function listEncodings(run: CaseRun, step: StepDef): (ListEncoding | undefined)[] {
  const declared = run.services.profile.declared['referenceListEncoding'];
  if (step.listEncoding !== undefined) {
    const chosen = String(run.resolve(step.listEncoding));
    if (!isListEncoding(chosen)) throw new Stop('error', `suite error: step "${step.name}": listEncoding ${chosen} is none of ${LIST_ENCODINGS.join(', ')}`);
    return [chosen];
  }
  if (isListEncoding(declared)) return [declared];
  return step.tryListEncodings ? [...LIST_ENCODINGS] : [undefined];
}

/** k=a&k=b, k[]=a&k[]=b, k=a,b or k=["a","b"]; a key already written k[] is sent as written. */
function appendList(params: URLSearchParams, name: string, values: string[], encoding: ListEncoding): void {
  if (name.endsWith('[]') || encoding === 'repeat') for (const v of values) params.append(name, v);
  else if (encoding === 'brackets') for (const v of values) params.append(`${name}[]`, v);
  else if (encoding === 'comma') params.append(name, values.join(','));
  else params.append(name, JSON.stringify(values));
}
