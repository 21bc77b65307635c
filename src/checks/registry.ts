// One registry of named checks. A check's id is its name everywhere: suite files, reports, docs.
import { clause as clauseOf, type Operation } from '../spec/index.js';
import type { Exchange } from '../core/results.js';
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

export function defineCheck(check: Check): Check {
  if (registry.has(check.id)) throw new Error(`rdx: duplicate check id ${check.id}`);
  for (const id of check.clauses) clauseOf(id); // throws on an unknown clause
  registry.set(check.id, check);
  return check;
}

export function getCheck(id: string): Check | undefined {
  return registry.get(id);
}

export function allChecks(): Check[] {
  return [...registry.values()];
}

/** Helpers shared by checks. */
export const pass = (clause: string, message: string): Judgement => ({ clause, passed: true, message });
export const fail = (clause: string, message: string): Judgement => ({ clause, passed: false, message });
export const judge = (clause: string, ok: boolean, yes: string, no: string): Judgement => (ok ? pass(clause, yes) : fail(clause, no));

export function bodyObject(ex: Exchange): Record<string, unknown> | undefined {
  const json = ex.response?.json;
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}

/** Whether the clause register says `clauseId` applies to the exchange's endpoint (spec/clauses.yaml `endpoints`). */
export const judgesEndpoint = (clauseId: string, ctx: CheckContext): boolean =>
  !!ctx.operation && clauseOf(clauseId).endpoints.includes(ctx.operation.endpoint);

export const isSuccess = (ex: Exchange): boolean => !!ex.response && ex.response.status >= 200 && ex.response.status < 300;
export const isFailure = (ex: Exchange): boolean => !!ex.response && ex.response.status >= 400;

/** A short, safe rendering of a value for messages. */
export function show(value: unknown, max = 160): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
