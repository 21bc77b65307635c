// The run's verdict in the console's words: summary.verdict and its facts as the engine wrote them (src/core/verdict.ts
// decides them, once); nothing here derives a verdict or a count of its own.
import type { Summary } from '../core/report.js';
import { verdictLine } from '../core/verdict.js';
import { escapeTerminal } from '../core/terminal.js';
import { countsInOrder } from '../core/case-view.js';

export { VERDICT_WORDS, type RunVerdict } from '../core/verdict.js';

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
  const counts = countsInOrder(s.byVerdict).map(([k, v]) => `${v} ${k}`).join(', ');
  return [`${verdictLine(s)} (${counts}${s.failOn === 'should' ? '; --fail-on should' : ''})`, ...toCompleteLines(s)].join('\n');
}
