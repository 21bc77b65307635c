// The verdict of a whole run, and what would complete it: computed here and nowhere else. The engine writes it
// once into report.json (summary), a merge of shards recomputes it through the same summarise(), and every output
// reads summary.verdict. A certifier signs this line, so it never reads CONFORMANT while a MUST case went unjudged
// (INCOMPLETE), while baselined MUST failures are excused (KNOWN_FAILURES), or while a MUST case failed
// (NOT_CONFORMANT). docs/verdicts.md is the user's side of this file.
import { EXIT } from '../errors.js';
import type { CaseResult, Unlock } from './results.js';
import type { FailOn, NotRun, RunVerdict, Summary, ToComplete } from './report.js';
import { VERDICT_WORDS, shownVerdict } from './case-view.js';
import { DEADLINE_UNLOCK, INTERRUPTED_UNLOCK } from './unlocks.js';

export type { FailOn, NotRun, RunVerdict, ToComplete } from './report.js';
export { VERDICT_WORDS } from './case-view.js';

/** The prefix of a skip reason for a case whose prerequisite failed (shared contract). */
export const notRunBecause = (id: string, what = 'failed'): string => `not run because ${id} ${what}`;

/** What would let a skipped case run: the unlock the runner recorded, else what its reason says (deadline or interruption skips). */
export function unlockOf(c: Pick<CaseResult, 'reason' | 'unlock'>): Unlock {
  if (c.unlock) return c.unlock;
  const reason = c.reason ?? 'not judged';
  if (/^not run \(deadline\)/.test(reason)) return DEADLINE_UNLOCK;
  if (/^not run \(interrupted\)/.test(reason)) return INTERRUPTED_UNLOCK;
  const failed = /^not run because (\S+) (failed|errored)/.exec(reason);
  if (failed) return { unlock: `fix ${failed[1]}`, how: `${failed[1]} ${failed[2]}: once it passes, this case runs` };
  return { unlock: 'see the reason', how: reason };
}

/** Groups the unjudged MUST cases by what unlocks them, in the order first met. */
export function toCompleteList(unjudged: NotRun[]): ToComplete[] {
  const byUnlock = new Map<string, ToComplete>();
  for (const { id, unlock } of unjudged) {
    const key = `${unlock.unlock}\u0000${unlock.how}`;
    const entry = byUnlock.get(key) ?? { unlock: unlock.unlock, how: unlock.how, cases: [] };
    if (!entry.cases.includes(id)) entry.cases.push(id);
    byUnlock.set(key, entry);
  }
  return [...byUnlock.values()];
}

interface VerdictInputs {
  mustFailures: number;
  errors: number;
  shouldWarnings: number;
  knownFailures: number;
  unjudgedMust: number;
  failOn: FailOn;
}

/** Worst first: a failure outweighs a gap, a gap outweighs an excused failure. */
function decideVerdict(s: VerdictInputs): RunVerdict {
  if (s.mustFailures > 0 || s.errors > 0 || (s.failOn === 'should' && s.shouldWarnings > 0)) return 'NOT_CONFORMANT';
  if (s.unjudgedMust > 0) return 'INCOMPLETE';
  if (s.knownFailures > 0) return 'KNOWN_FAILURES';
  return 'CONFORMANT';
}

/** Why the run has its verdict, in counts: the sentence report.html and the dashboard show under the verdict word. */
export function verdictWhy(s: Pick<Summary, 'mustFailures' | 'errors' | 'shouldWarnings' | 'unjudgedMust' | 'knownFailures' | 'failOn'>): string {
  const parts: string[] = [];
  if (s.mustFailures) parts.push(`${s.mustFailures} MUST failure(s)`);
  if (s.errors) parts.push(`${s.errors} error(s)`);
  if (s.failOn === 'should' && s.shouldWarnings) parts.push(`${s.shouldWarnings} SHOULD warning(s) (--fail-on should)`);
  if (s.unjudgedMust) parts.push(`${s.unjudgedMust} MUST case(s) not judged`);
  if (s.knownFailures) parts.push(`${s.knownFailures} known failure(s) excused by the baseline`);
  if (!parts.length) parts.push('every MUST case judged and passed');
  return parts.join(', ');
}

/** The verdict word and why: the console's closing line, and the run card's. */
export const verdictLine = (s: Summary): string => `${VERDICT_WORDS[s.verdict]}: ${verdictWhy(s)}`;

/**
 * The counts and the verdict of a set of results: the one place a run's verdict is decided. `notRun` are MUST cases
 * the run was meant to judge but never ran (filters, a missing shard, --bail): they count as unjudged like skips do.
 */
export function summarise(cases: CaseResult[], options: { failOn?: FailOn; notRun?: NotRun[] } = {}): Summary {
  const failOn = options.failOn ?? 'must';
  // Counted in Maps: a level or verdict is a string a report file may have crafted ("__proto__"), never a key of a
  // plain object that is written to.
  const byVerdict = new Map<string, number>();
  const byLevel = new Map<string, Map<string, number>>();
  for (const c of cases) {
    const verdict = shownVerdict(c);
    byVerdict.set(verdict, (byVerdict.get(verdict) ?? 0) + 1);
    const level = byLevel.get(c.level) ?? new Map<string, number>();
    level.set(verdict, (level.get(verdict) ?? 0) + 1);
    byLevel.set(c.level, level);
  }
  const mustFailures = cases.filter((c) => c.verdict === 'fail' && !c.baseline).length;
  const errors = cases.filter((c) => c.verdict === 'error' && !c.baseline).length;
  const shouldWarnings = cases.filter((c) => c.verdict === 'warn' && !c.baseline).length;
  // An excused warning matters only where warnings fail the run.
  const knownFailures = cases.filter((c) => c.baseline && (c.verdict !== 'warn' || failOn === 'should')).length;
  // A case counts once: by its own skip when it ran, else by the first reason given for leaving it out.
  const seen = new Set(cases.map((c) => c.id));
  const unjudged: NotRun[] = cases.filter((c) => c.level === 'MUST' && c.verdict === 'skip').map((c) => ({ id: c.id, unlock: unlockOf(c) }));
  for (const n of options.notRun ?? []) {
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    unjudged.push(n);
  }
  const inputs = { mustFailures, errors, shouldWarnings, knownFailures, unjudgedMust: unjudged.length, failOn };
  const verdict = decideVerdict(inputs);
  return {
    total: cases.length,
    // Object.fromEntries defines own properties: "__proto__" stays a key like any other.
    byVerdict: Object.fromEntries(byVerdict),
    byLevel: Object.fromEntries([...byLevel].map(([level, counts]) => [level, Object.fromEntries(counts)])),
    ...inputs, verdict, conformant: verdict === 'CONFORMANT', toComplete: toCompleteList(unjudged),
  };
}

/** 0 CONFORMANT or KNOWN_FAILURES, 1 NOT_CONFORMANT, 4 INCOMPLETE (0 with --allow-incomplete): read from the verdict. */
export function exitCodeOf(summary: Pick<Summary, 'verdict'>, allowIncomplete = false): number {
  switch (summary.verdict) {
    case 'NOT_CONFORMANT': return EXIT.MUST_FAILED;
    case 'INCOMPLETE': return allowIncomplete ? EXIT.OK : EXIT.INCOMPLETE;
    default: return EXIT.OK;
  }
}
