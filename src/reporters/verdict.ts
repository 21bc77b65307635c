// The verdict of a whole run, in the words a certificate uses. One function, so every reader (diff, badge, page)
// agrees: it takes summary.verdict (the shared contract, set by the engine) and, for reports written before the
// engine set it, derives the same answer from the counts.
import type { Report } from './merge.js';

export type RunVerdict = 'CONFORMANT' | 'INCOMPLETE' | 'KNOWN_FAILURES' | 'NOT_CONFORMANT';

export const VERDICT_WORDS: Record<RunVerdict, string> = {
  CONFORMANT: 'CONFORMANT',
  INCOMPLETE: 'INCOMPLETE',
  KNOWN_FAILURES: 'KNOWN FAILURES',
  NOT_CONFORMANT: 'NOT CONFORMANT',
};

const KNOWN = new Set<string>(Object.keys(VERDICT_WORDS));

export function runVerdict(report: Report): RunVerdict {
  const given = (report.summary as { verdict?: unknown }).verdict;
  if (typeof given === 'string' && KNOWN.has(given)) return given as RunVerdict;
  const s = report.summary;
  if (s.mustFailures > 0 || s.errors > 0) return 'NOT_CONFORMANT';
  // A MUST case that was not judged leaves the question open: not conformant yet, not failed either.
  if (report.cases.some((c) => c.level === 'MUST' && c.verdict === 'skip' && !c.baseline)) return 'INCOMPLETE';
  if (report.cases.some((c) => c.baseline)) return 'KNOWN_FAILURES';
  return 'CONFORMANT';
}

export const verdictWords = (report: Report): string => VERDICT_WORDS[runVerdict(report)];
