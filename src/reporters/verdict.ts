// The verdict of a whole run, in the words a certificate uses. One function, so every reader (diff, badge, page,
// console) agrees: it takes summary.verdict (the shared contract, set by the engine, src/engine/verdict.ts) and, for
// reports written before the engine set it, derives the same answer from the counts.
import type { Summary } from '../engine/run.js';
import { VERDICT_WORDS, verdictLine, type RunVerdict } from '../engine/verdict.js';
import type { Report } from './merge.js';
import { escapeTerminal } from './terminal.js';

export { VERDICT_WORDS, type RunVerdict };

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

/** Case ids shown per line of the console list; report.json has them all. */
const SHOWN = 3;

/** The "To complete this certification" list, one line per unlock; empty when nothing is missing. */
export function toCompleteLines(summary: Pick<Summary, 'toComplete' | 'unjudgedMust'>): string[] {
  if (!summary.toComplete.length) return [];
  return [
    `To complete this certification (${summary.unjudgedMust} MUST case(s) not judged):`,
    ...summary.toComplete.map((t) => {
      const ids = `${t.cases.slice(0, SHOWN).join(', ')}${t.cases.length > SHOWN ? `, +${t.cases.length - SHOWN} more` : ''}`;
      // A reason may quote the target's answer.
      return `  - ${escapeTerminal(t.unlock)}: ${escapeTerminal(t.how)} (${t.cases.length} case(s): ${ids})`;
    }),
  ];
}

/** The closing lines of a run on the console: the verdict, the counts, and what would complete it. */
export function verdictSummary(s: Summary): string {
  const counts = Object.entries(s.byVerdict).map(([k, v]) => `${v} ${k}`).join(', ');
  return [`${verdictLine(s)} (${counts}${s.failOn === 'should' ? '; --fail-on should' : ''})`, ...toCompleteLines(s)].join('\n');
}
