// Judging a step's answer: its expect blocks (outcome, status, body shape, values, named checks) and the global
// checks that apply to every answer.
import { getCheck, globalChecks, type CheckContext, type Judgement } from '../checks/index.js';
import { sameValue } from '../checks/records.js';
import { bodyObject, outcomeOf } from '../checks/registry.js';
import { clause as clauseOf, schemaErrors, SCHEMA_BASE, type Operation } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import type { Exchange } from '../core/results.js';
import type { ExpectDef } from './suite.js';
import { Stop, type CaseRun, type Judged } from './case-run.js';
import { extract } from './step-paths.js';

/** What a step's answer is judged on: its first exchange, all its pages, its operation and the body it sent. */
export interface Answer {
  ex: Exchange;
  stepExchanges: Exchange[];
  op: Operation | undefined;
  body: unknown;
}

/** The context a check judges an exchange in. */
export function checkContext(run: CaseRun, answer: Answer, args: Record<string, unknown>): CheckContext {
  const { ex, stepExchanges, op, body } = answer;
  const { gen, profile } = run.services;
  return { exchange: ex, stepExchanges, ...(op ? { operation: op } : {}), requestBody: body, invalidItems: gen.invalidItems, args, declared: profile.declared };
}

/** The global checks' judgements of every exchange of a step. */
export function globalJudgements(run: CaseRun, answer: Answer): Judged[] {
  const out: Judged[] = [];
  for (const ex of answer.stepExchanges) {
    const ctx = checkContext(run, { ...answer, ex }, {});
    const exchange = run.indexOf(ex);
    for (const check of globalChecks()) {
      if (!check.appliesTo?.(ctx)) continue;
      for (const j of check.run(ctx)) out.push({ ...j, check: check.id, exchange });
    }
  }
  return out;
}

/**
 * Judges one expect block. In a setup step an expectation judges a clause only when one is known: given with
 * `clause:`, a check's own, or, for `outcome: success`, the valid write's (outcomeClause); otherwise its clause is
 * "" and it is a precondition.
 */
export function expectation(run: CaseRun, e: ExpectDef, answer: Answer, setup = false, outcomeClause?: string): (Judgement & { check: string })[] {
  const { ex, stepExchanges, body } = answer;
  const clause = e.clause ?? (setup ? '' : run.c.clauses[0] ?? 'HTTP.STATUS_MATCHES_BODY');
  const status = ex.response?.status ?? 0;
  const out: (Judgement & { check: string })[] = [];
  const add = (check: string, passed: boolean, message: string, judged = clause): void => {
    out.push({ clause: judged, passed, message, check });
  };
  // The body says what happened (an error body is a refusal whatever the status); the status only where it is silent.
  const outcome = outcomeOf(ex);
  if (e.outcome === 'success') {
    add('expect.outcome', outcome === 'success', outcome === 'success' ? `accepted with ${status}` : `expected success, got status ${status}: ${describeBody(ex)} (${describeOutcome(ex)})`,
      e.clause ?? (setup ? outcomeClause ?? '' : clause));
  }
  if (e.outcome === 'failure') add('expect.outcome', outcome === 'failure', outcome === 'failure' ? `refused with ${status}` : `expected a failure, got status ${status} with ${describeOutcome(ex)}`);
  if (e.status !== undefined) {
    const wanted = [e.status].flat();
    const ok = wanted.some((w) => (typeof w === 'number' ? w === status : String(status)[0] === w[0]));
    add('expect.status', ok, ok ? `status ${status}` : `expected status ${wanted.join(' or ')}, got ${status}`);
  }
  if (e.body) {
    const uri = e.body === 'token' ? `${SCHEMA_BASE}token.json#/$defs/response` : `${SCHEMA_BASE}envelope.json#/$defs/${e.body}`;
    const errors = ex.response?.json === undefined ? [`the body is not JSON`] : schemaErrors(uri, ex.response.json);
    add('expect.body', errors.length === 0, errors.length ? `body is not ${/^[aeiou]/.test(e.body) ? 'an' : 'a'} ${e.body} body: ${errors.slice(0, 4).join('; ')}` : `${e.body} body`);
  }
  for (const [path, expectedRaw] of Object.entries(e.equals ?? {})) {
    const expected = run.resolve(expectedRaw);
    const actual = extract(path, ex, stepExchanges, body);
    add('expect.equals', sameValue(expected, actual, true), `${path} is ${JSON.stringify(actual)}${sameValue(expected, actual, true) ? '' : `, expected ${JSON.stringify(expected)}`}`);
  }
  for (const [path, n] of Object.entries(e.length ?? {})) {
    const actual = extract(path, ex, stepExchanges, body);
    const len = Array.isArray(actual) ? actual.length : undefined;
    add('expect.length', len === n, `${path} has ${len === undefined ? 'no list' : `${len} item(s)`}${len === n ? '' : `, expected ${n}`}`);
  }
  out.push(...namedChecks(run, e, answer));
  return out;
}

/** The judgements of the named checks of an expect block (`checks:`). */
function namedChecks(run: CaseRun, e: ExpectDef, answer: Answer): (Judgement & { check: string })[] {
  const out: (Judgement & { check: string })[] = [];
  for (const spec of e.checks ?? []) {
    const id = typeof spec === 'string' ? spec : spec.id;
    const check = getCheck(id);
    if (!check) throw new Stop('error', `suite error: unknown check ${id}`);
    const args = typeof spec === 'string' ? {} : (run.resolve(spec.with ?? {}) as Record<string, unknown>);
    if (typeof spec !== 'string' && spec.clause) args['clause'] = spec.clause;
    for (const j of check.run(checkContext(run, answer, args))) out.push({ ...j, check: id });
  }
  return out;
}

/** The level of a clause id; undefined for "" (a precondition) or an interpretation id. */
export function levelOf(id: string): 'MUST' | 'SHOULD' | undefined {
  if (!id) return undefined;
  try {
    return clauseOf(id).level;
  } catch {
    return undefined;
  }
}

/** Why an answer reads as it does, for expect.outcome messages. */
function describeOutcome(ex: Exchange): string {
  const body = bodyObject(ex);
  const records = Array.isArray(body?.['data']) ? (body?.['data'] as unknown[]).length : 0;
  const errors = Array.isArray(body?.['errors']) ? (body?.['errors'] as unknown[]).length : 0;
  if (errors > 0 && records === 0) return `an error body (${errors} error item(s))`;
  if (records > 0 && errors === 0) return `${records} record(s) in data`;
  if (records > 0) return `${records} record(s) and ${errors} error item(s)`;
  return 'a body that does not say';
}

/** The message of an error body, for messages. */
export function describeBody(ex: Exchange): string {
  const body = bodyObject(ex);
  const message = body?.['message'];
  const firstError = readPath(body, 'errors.0.message');
  return [typeof message === 'string' ? message : undefined, typeof firstError === 'string' ? firstError : undefined]
    .filter(Boolean).join(' — ') || (ex.response?.body.slice(0, 120) ?? '');
}
