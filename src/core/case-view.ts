// How a case and a run's verdict are shown, the same in every output: the console, report.html (and its script), the
// merge of `rdx report`, `rdx diff`, the dashboard (browser code that bundles this file) and examples/job-summary.mjs
// (plain JS, copied next to a workflow, so it keeps its own copy of the order; src/cli/consistency.test.ts holds it to
// this one). Nothing here decides a verdict: summarise() (verdict.ts) does. No imports, so that the browser code can
// bundle it without pulling Node code into the page.

/** A run's verdict (summary.verdict). */
export type RunVerdict = 'CONFORMANT' | 'INCOMPLETE' | 'KNOWN_FAILURES' | 'NOT_CONFORMANT';
export const RUN_VERDICTS: readonly RunVerdict[] = ['CONFORMANT', 'INCOMPLETE', 'KNOWN_FAILURES', 'NOT_CONFORMANT'];

/** How a run's verdict word is written for people (headline, console, JUnit, HTML, badge, diff, dashboard). */
export const VERDICT_WORDS: Record<RunVerdict, string> = {
  CONFORMANT: 'CONFORMANT',
  INCOMPLETE: 'INCOMPLETE',
  KNOWN_FAILURES: 'KNOWN FAILURES',
  NOT_CONFORMANT: 'NOT CONFORMANT',
};

/** The look of a run's verdict: report.html's verdict box and the dashboard's run card share these class names. */
export const RUN_VERDICT_CLASS: Record<RunVerdict, 'pass' | 'fail' | 'incomplete' | 'known'> = {
  CONFORMANT: 'pass',
  NOT_CONFORMANT: 'fail',
  INCOMPLETE: 'incomplete',
  KNOWN_FAILURES: 'known',
};

/**
 * The verdicts a case is shown with, worst first: what every list, count and colour of a case follows, and which of
 * two verdicts a merge keeps. A fail outweighs an error: both make the run NOT CONFORMANT, but a fail is a broken MUST
 * clause with the exchange that proves it, while an error is a case the target gave no answer to, so no clause was
 * judged; a merge that keeps the fail keeps the evidence. A known failure (excused by the baseline) counts for less
 * than a warning that counts, and more than a skip, which is no judgement at all.
 */
export const CASE_VERDICTS = ['fail', 'error', 'warn', 'known-failure', 'skip', 'pass', 'observed'] as const;
export type ShownVerdict = (typeof CASE_VERDICTS)[number];

/** What showing a case needs: its verdict, and whether the baseline excuses it. */
export interface ShownCase {
  verdict: string;
  baseline?: unknown;
}

/** A case's verdict as shown: its own, or known-failure when the baseline excuses it. */
export const shownVerdict = (c: ShownCase): string => (c.baseline ? 'known-failure' : c.verdict);

/** How bad a shown verdict is: higher is worse; -1 for a word that is no verdict (a report file may be crafted). */
export function verdictRank(verdict: string): number {
  const at = (CASE_VERDICTS as readonly string[]).indexOf(verdict);
  return at < 0 ? -1 : CASE_VERDICTS.length - at;
}

/** The worst of some shown verdicts (the first of the worst on a tie). */
export const worstVerdict = (verdicts: string[]): string => verdicts.reduce((a, b) => (verdictRank(b) > verdictRank(a) ? b : a));

/** Sorts cases worst first (a stable sort keeps their order within a verdict). */
export const worstFirst = (a: ShownCase, b: ShownCase): number => verdictRank(shownVerdict(b)) - verdictRank(shownVerdict(a));

/** The shown verdicts a failure list shows: failed, errored or warned, and not excused. */
export const PROBLEM_VERDICTS: readonly ShownVerdict[] = ['fail', 'error', 'warn'];
export const isProblemVerdict = (verdict: string): boolean => (PROBLEM_VERDICTS as readonly string[]).includes(verdict);

/** A case a failure list shows: failed, warned or errored, baseline entries aside (they have their own list). */
export const isProblem = (c: ShownCase): boolean => isProblemVerdict(shownVerdict(c));

/** A summary's counts by verdict in the shown order, worst first; a word that is no verdict last, as met. */
export function countsInOrder(byVerdict: Record<string, number>): [string, number][] {
  // Unknown words rank -1, below every verdict; the sort is stable, so they stay as met.
  return Object.entries(byVerdict).sort(([a], [b]) => verdictRank(b) - verdictRank(a));
}
