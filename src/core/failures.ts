// The failures of a run grouped by what broke: one group per clause, level and check, so that 75 cases refused with
// one defect read as one line ("ENVELOPE.MESSAGE — 75 cases: message is missing") and not as 75. Derived here from
// the cases alone, once, and read by the console (src/reporters/console.ts) and report.html (src/reporters/html.ts).
// It decides nothing: the verdict and its counts stay summarise()'s (src/core/verdict.ts).
// A read-back failure (WRITE.READ_BACK, WRITE.PATCH_PARTIAL, …) is a symptom: the read shows what a write before it
// did. Those are grouped by that write (its method), not by clause, so one bug in PATCH that shows as
// WRITE.PATCH_PARTIAL in some cases and WRITE.READ_BACK in others is one group, "caused by a PATCH".
import { operations } from '../spec/index.js';
import { isProblem } from './case-view.js';
import type { CaseResult, Exchange } from './results.js';

/** One case in a group: its id and the request step whose answer broke the clause. */
export interface FailedCase {
  id: string;
  /** "step 3 DELETE /jobboard/activities/{id}": the exchange's number in the case, its method and the spec's path. */
  step?: string;
  /** For a read-back failure: the write that caused it, "step 2 PATCH /ats/job-offers/{id}". */
  cause?: string;
}

export interface FailureGroup {
  /** The clause that broke, or "-" for a case that errored without a judgement (the harness or the transport broke). */
  clause: string;
  /** The level of the clause as the check judged it (not the case's level): MUST, SHOULD, or ERROR for an error. */
  level: 'MUST' | 'SHOULD' | 'ERROR';
  /** The named check that judged it. */
  check: string;
  /** The finding most cases of the group share (the first met on a tie). */
  finding: string;
  /** How many different findings the group holds (messages quote ids and statuses, so they may differ). */
  findings: number;
  cases: FailedCase[];
  /** A group of read-back failures: the method of the write that caused them ("PATCH"), and every clause they broke. */
  cause?: { method: string; clauses: string[] };
}

/** The clauses a read judges about a write before it: their failures are grouped by that write. */
export const READ_BACK_CLAUSES: ReadonlySet<string> = new Set([
  'WRITE.READ_BACK', 'WRITE.PATCH_PARTIAL', 'WRITE.PUT_CLEARS_OMITTED', 'DELETE.REMOVES', 'REQUEST.REFUSED_CHANGES_NOTHING',
]);

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The write a read-back failure at exchange `index` shows: the last request before it, or the exchange itself, that
 * changes something (any method but GET, HEAD, OPTIONS) and is not a token request. Undefined when there is none.
 */
export function causeIndex(exchanges: Exchange[], index: number | undefined): number | undefined {
  if (index === undefined) return undefined;
  for (let i = Math.min(index, exchanges.length - 1); i >= 0; i--) {
    const request = exchanges[i]?.request;
    if (request && !READS.has(request.method.toUpperCase()) && !/\/oauth2\/token\/?(?:\?|$)/.test(request.url)) return i;
  }
  return undefined;
}

let templates: { method: string; path: string; pattern: RegExp; params: number }[] | undefined;

/** The spec's path of a request ("/jobboard/activities/{id}"), matched on the URL's path end; the path itself if none. */
export function pathTemplate(method: string, url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return url;
  }
  templates ??= operations().map((op) => ({
    method: op.method.toUpperCase(),
    path: op.path,
    pattern: new RegExp(`${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`),
    params: (op.path.match(/\{/g) ?? []).length,
  })).sort((a, b) => a.params - b.params); // …/batch before …/{id}
  return templates.find((t) => t.method === method.toUpperCase() && t.pattern.test(path))?.path ?? path;
}

/** "step 3 DELETE /jobboard/activities/{id}" for the case's exchange at index (counted from 1 for people). */
export function stepLabel(exchanges: Exchange[], index: number | undefined): string | undefined {
  const ex = index === undefined ? undefined : exchanges[index];
  if (!ex || index === undefined) return undefined;
  return `step ${index + 1} ${ex.request.method.toUpperCase()} ${pathTemplate(ex.request.method, ex.request.url)}`;
}

interface Entry { group: FailureGroup; messages: Map<string, number>; clauses: Map<string, Set<string>> }

/** "step 6 PATCH /ats/job-offers/{id} → step 7 GET /ats/job-offers/{id}": the write a read-back failure shows, then the read. */
export function causedStep(c: FailedCase): string {
  return c.cause && c.cause !== c.step ? `${c.cause} → ${c.step ?? ''}` : c.step ?? '';
}

/** Groups the failing cases' broken clauses, MUST first, then by how many cases each group holds. */
export function failureGroups(cases: CaseResult[]): FailureGroup[] {
  const groups = new Map<string, Entry>();
  const add = (key: string, fresh: FailureGroup, clause: string, message: string, failed: FailedCase): void => {
    const entry = groups.get(key) ?? { group: fresh, messages: new Map<string, number>(), clauses: new Map<string, Set<string>>() };
    groups.set(key, entry);
    entry.messages.set(message, (entry.messages.get(message) ?? 0) + 1);
    entry.clauses.set(clause, (entry.clauses.get(clause) ?? new Set<string>()).add(failed.id));
    if (!entry.group.cases.some((c) => c.id === failed.id)) entry.group.cases.push(failed);
  };
  for (const c of cases.filter(isProblem)) {
    const broken = c.assertions.filter((a) => !a.passed);
    for (const a of broken) {
      const step = stepLabel(c.exchanges, a.exchange);
      const at = READ_BACK_CLAUSES.has(a.clause) ? causeIndex(c.exchanges, a.exchange) : undefined;
      const method = at === undefined ? undefined : c.exchanges[at]?.request.method.toUpperCase();
      const failed = { id: c.id, ...(step ? { step } : {}), ...(at !== undefined ? { cause: stepLabel(c.exchanges, at) as string } : {}) };
      const fresh = { clause: a.clause, level: a.level, check: a.check, finding: a.message, findings: 0, cases: [] };
      if (method) add(`${a.level}\u0000cause\u0000${method}`, { ...fresh, cause: { method, clauses: [] } }, a.clause, a.message, failed);
      else add(`${a.level}\u0000${a.clause}\u0000${a.check}`, fresh, a.clause, a.message, failed);
    }
    if (!broken.length) {
      // An error with no judgement: where the case stopped is its last exchange.
      const step = stepLabel(c.exchanges, c.exchanges.length ? c.exchanges.length - 1 : undefined);
      const failed = { id: c.id, ...(step ? { step } : {}) };
      add('ERROR\u0000-\u0000-', { clause: '-', level: 'ERROR', check: '-', finding: c.reason ?? 'the case errored', findings: 0, cases: [] }, '-', c.reason ?? 'the case errored', failed);
    }
  }
  const rank = { ERROR: 0, MUST: 1, SHOULD: 2 } as const;
  return [...groups.values()].map(finished)
    .sort((a, b) => rank[a.level] - rank[b.level] || b.cases.length - a.cases.length || a.clause.localeCompare(b.clause));
}

/** A group's commonest finding, how many findings it holds, and for a cause group its clauses, commonest first. */
function finished({ group, messages, clauses }: Entry): FailureGroup {
  let finding = group.finding;
  for (const [message, n] of messages) if (n > (messages.get(finding) ?? 0)) finding = message;
  if (!group.cause) return { ...group, finding, findings: messages.size };
  const byCount = [...clauses].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0])).map(([clause]) => clause);
  return { ...group, clause: byCount[0] ?? group.clause, finding, findings: messages.size, cause: { ...group.cause, clauses: byCount } };
}
