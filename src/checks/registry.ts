// One registry of named checks. A check's id is its name everywhere: suite files, reports, docs.
import { clause as clauseOf, type Operation } from '../spec/index.js';
import type { Exchange } from '../core/results.js';
import { jsonPrefix } from '../core/json-prefix.js';
import type { ProfileDeclared } from '../config/profile.js';

export interface CheckContext {
  exchange: Exchange;
  /** Every exchange of the step (the pages of a paginated walk; otherwise just `exchange`). */
  stepExchanges: Exchange[];
  operation?: Operation;
  /** The JSON body the step sent, after templates and generators. */
  requestBody?: unknown;
  /** Items of the request body made by $invalid. */
  invalidItems: WeakSet<object>;
  /** The check's `with:` arguments, resolved. */
  args: Record<string, unknown>;
  declared: ProfileDeclared;
}

export interface Judgement {
  clause: string;
  passed: boolean;
  message: string;
  /**
   * A failure that may only mean the request was not understood as meant (a list encoding the implementation does
   * not read): a step that tries several encodings moves on to the next, and is skipped when no attempt decides.
   */
  inconclusive?: boolean;
}

export interface Check {
  id: string;
  description: string;
  /** The clauses it may judge (the first is its default). */
  clauses: string[];
  /** Global checks judge every exchange of MUST and SHOULD cases that they apply to. */
  global?: boolean;
  appliesTo?: (ctx: CheckContext) => boolean;
  /** Returns no judgement when it has nothing to judge on this exchange. */
  run: (ctx: CheckContext) => Judgement[];
}

const registry = new Map<string, Check>();
/** The global checks, in registry order: asked for on every exchange a run records. */
const globals: Check[] = [];

export function defineCheck(check: Check): Check {
  if (registry.has(check.id)) throw new Error(`rdx: duplicate check id ${check.id}`);
  for (const id of check.clauses) clauseOf(id); // throws on an unknown clause
  registry.set(check.id, check);
  if (check.global) globals.push(check);
  return check;
}

export function getCheck(id: string): Check | undefined {
  return registry.get(id);
}

export function allChecks(): Check[] {
  return [...registry.values()];
}

export function globalChecks(): readonly Check[] {
  return globals;
}

/** Helpers shared by checks. */
export const pass = (clause: string, message: string): Judgement => ({ clause, passed: true, message });
export const fail = (clause: string, message: string): Judgement => ({ clause, passed: false, message });
export const judge = (clause: string, ok: boolean, yes: string, no: string): Judgement => (ok ? pass(clause, yes) : fail(clause, no));

export function bodyObject(ex: Exchange): Record<string, unknown> | undefined {
  const json = ex.response?.json;
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}

/**
 * Whether a body carries an envelope member (data, errors): there and not null. A body may leave out what it has no
 * use for, and null there reads as left out (interpretation NULL_ENVELOPE_MEMBER): an error body with `data: null`
 * is an error body. Where a member must be there (data on a success), null still fails the check that needs it.
 */
export const carries = (body: Record<string, unknown>, member: 'data' | 'errors'): boolean => body[member] !== undefined && body[member] !== null;

/** Whether the clause register says `clauseId` applies to the exchange's endpoint (spec/clauses.yaml `endpoints`). */
export const judgesEndpoint = (clauseId: string, ctx: CheckContext): boolean =>
  !!ctx.operation && clauseOf(clauseId).endpoints.includes(ctx.operation.endpoint);

export const isSuccess = (ex: Exchange): boolean => !!ex.response && ex.response.status >= 200 && ex.response.status < 300;
export const isFailure = (ex: Exchange): boolean => !!ex.response && ex.response.status >= 400;

/**
 * What an answer says happened. The spec does not show which status goes with which body, so the body decides where
 * it speaks: an error body (errors, no records) is a refusal and records without errors are a success, whatever the
 * status. The status decides only where the body is silent ({message} only, an empty data, no JSON) or carries both
 * (a partial success, which the batch oracle judges by itself). 'none' when no answer came.
 */
export function outcomeOf(ex: Exchange): 'success' | 'failure' | 'none' {
  if (!ex.response) return 'none';
  const body = bodyObject(ex);
  const data = body?.['data'];
  const errors = body?.['errors'];
  const records = Array.isArray(data) && data.length > 0;
  const refusals = Array.isArray(errors) && errors.length > 0;
  if (refusals && !records) return 'failure';
  if (records && !refusals) return 'success';
  return isSuccess(ex) ? 'success' : 'failure';
}

/** The values at a dotted path, where `*` stands for every item of an array (attributes.*.name). */
export function valuesAt(value: unknown, path: string): unknown[] {
  const [head, ...rest] = path.split('.');
  if (head === undefined || head === '') return [value];
  if (value === null || typeof value !== 'object') return [];
  if (head === '*') return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest.join('.'))) : [];
  const next = Array.isArray(value) ? (/^\d+$/.test(head) ? value[Number(head)] : undefined) : (value as Record<string, unknown>)[head];
  return next === undefined ? [] : valuesAt(next, rest.join('.'));
}

/** A short, safe rendering of a value for messages. */
export function show(value: unknown, max = 160): string {
  const text = value === undefined ? 'nothing' : jsonPrefix(value, max + 1) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
