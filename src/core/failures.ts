// The failures of a run grouped by what broke: one group per clause, level and check, so that 75 cases refused with
// one defect read as one line ("ENVELOPE.MESSAGE — 75 cases: message is missing") and not as 75. Derived here from
// the cases alone, once, and read by the console (src/reporters/console.ts) and report.html (src/reporters/html.ts).
// It decides nothing: the verdict and its counts stay summarise()'s (src/core/verdict.ts).
import { operations } from '../spec/index.js';
import { isProblem } from './case-view.js';
import type { CaseResult, Exchange } from './results.js';

/** One case in a group: its id and the request step whose answer broke the clause. */
export interface FailedCase {
  id: string;
  /** "step 3 DELETE /jobboard/activities/{id}": the exchange's number in the case, its method and the spec's path. */
  step?: string;
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

/** Groups the failing cases' broken clauses, MUST first, then by how many cases each group holds. */
export function failureGroups(cases: CaseResult[]): FailureGroup[] {
  const groups = new Map<string, { group: FailureGroup; messages: Map<string, number> }>();
  const add = (clause: string, level: FailureGroup['level'], check: string, message: string, failed: FailedCase): void => {
    const key = `${level}\u0000${clause}\u0000${check}`;
    const entry = groups.get(key) ?? { group: { clause, level, check, finding: message, findings: 0, cases: [] }, messages: new Map<string, number>() };
    groups.set(key, entry);
    entry.messages.set(message, (entry.messages.get(message) ?? 0) + 1);
    if (!entry.group.cases.some((c) => c.id === failed.id)) entry.group.cases.push(failed);
  };
  for (const c of cases.filter(isProblem)) {
    const broken = c.assertions.filter((a) => !a.passed);
    for (const a of broken) {
      const step = stepLabel(c.exchanges, a.exchange);
      add(a.clause, a.level, a.check, a.message, { id: c.id, ...(step ? { step } : {}) });
    }
    if (!broken.length) {
      // An error with no judgement: where the case stopped is its last exchange.
      const step = stepLabel(c.exchanges, c.exchanges.length ? c.exchanges.length - 1 : undefined);
      add('-', 'ERROR', '-', c.reason ?? 'the case errored', { id: c.id, ...(step ? { step } : {}) });
    }
  }
  const rank = { ERROR: 0, MUST: 1, SHOULD: 2 } as const;
  return [...groups.values()].map(({ group, messages }) => {
    let finding = group.finding;
    for (const [message, n] of messages) if (n > (messages.get(finding) ?? 0)) finding = message;
    return { ...group, finding, findings: messages.size };
  }).sort((a, b) => rank[a.level] - rank[b.level] || b.cases.length - a.cases.length || a.clause.localeCompare(b.clause));
}
