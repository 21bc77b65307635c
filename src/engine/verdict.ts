// The verdict of a whole run, and what would complete it. A certifier signs this line, so it never reads CONFORMANT
// while a MUST case went unjudged (INCOMPLETE), while baselined MUST failures are excused (KNOWN_FAILURES), or
// while a MUST case failed (NOT_CONFORMANT). docs/verdicts.md is the user's side of this file.
import type { CaseResult, Unlock } from '../core/results.js';

export type RunVerdict = 'CONFORMANT' | 'INCOMPLETE' | 'KNOWN_FAILURES' | 'NOT_CONFORMANT';

/** What fails the run: MUST failures only (the default), or SHOULD warnings too (--fail-on should). */
export type FailOn = 'must' | 'should';

/** One line of "To complete this certification": what would let these MUST cases be judged. */
export interface ToComplete {
  unlock: string;
  how: string;
  cases: string[];
}

/** A MUST case the run did not judge although it was meant to (filtered out, or in a shard that is missing). */
export interface NotRun {
  id: string;
  unlock: Unlock;
}

/** How a run's verdict word is written for people (headline, console, JUnit, HTML, badge, diff). */
export const VERDICT_WORDS: Record<RunVerdict, string> = {
  CONFORMANT: 'CONFORMANT',
  INCOMPLETE: 'INCOMPLETE',
  KNOWN_FAILURES: 'KNOWN FAILURES',
  NOT_CONFORMANT: 'NOT CONFORMANT',
};

/** The prefix of a skip reason for a case whose prerequisite failed (shared contract). */
export const notRunBecause = (id: string, what = 'failed'): string => `not run because ${id} ${what}`;

/**
 * What would let a skipped case run: the unlock the runner recorded, else what its reason says (reports written by
 * an older harness, deadline or interruption skips).
 */
export function unlockOf(c: Pick<CaseResult, 'reason' | 'unlock'>): Unlock {
  if (c.unlock) return c.unlock;
  const reason = c.reason ?? 'not judged';
  if (/^not run \(deadline\)/.test(reason)) return { unlock: '--deadline', how: 'give the run more time (a longer --deadline), or run the missing cases alone and merge the reports' };
  if (/^not run \(interrupted\)/.test(reason)) return { unlock: 'an uninterrupted run', how: 'run again to the end (the run was stopped by a signal)' };
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

export interface VerdictInputs {
  mustFailures: number;
  errors: number;
  shouldWarnings: number;
  knownFailures: number;
  unjudgedMust: number;
  failOn: FailOn;
}

/** Worst first: a failure outweighs a gap, a gap outweighs an excused failure. */
export function decideVerdict(s: VerdictInputs): RunVerdict {
  if (s.mustFailures > 0 || s.errors > 0 || (s.failOn === 'should' && s.shouldWarnings > 0)) return 'NOT_CONFORMANT';
  if (s.unjudgedMust > 0) return 'INCOMPLETE';
  if (s.knownFailures > 0) return 'KNOWN_FAILURES';
  return 'CONFORMANT';
}

/** One sentence after the verdict word: why, in counts. */
export function verdictLine(s: VerdictInputs & { verdict: RunVerdict }): string {
  const parts: string[] = [];
  if (s.mustFailures) parts.push(`${s.mustFailures} MUST failure(s)`);
  if (s.errors) parts.push(`${s.errors} error(s)`);
  if (s.failOn === 'should' && s.shouldWarnings) parts.push(`${s.shouldWarnings} SHOULD warning(s) (--fail-on should)`);
  if (s.unjudgedMust) parts.push(`${s.unjudgedMust} MUST case(s) not judged`);
  if (s.knownFailures) parts.push(`${s.knownFailures} known failure(s) excused by the baseline`);
  if (!parts.length) parts.push('every MUST case judged and passed');
  return `${VERDICT_WORDS[s.verdict]}: ${parts.join(', ')}`;
}
