// The verdict as people read it on a console (rdx run, rdx report): the verdict line, the counts, and the
// "To complete this certification" list. report.json carries the same in summary.verdict and summary.toComplete.
import type { Summary } from '../engine/run.js';
import { verdictLine } from '../engine/verdict.js';

/** Case ids shown per line of the list; report.json has them all. */
const SHOWN = 3;

// A reason may quote the target's answer: control characters must not reach the terminal.
// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');

/** The "To complete this certification" list, one line per unlock; empty when nothing is missing. */
export function toCompleteLines(summary: Pick<Summary, 'toComplete' | 'unjudgedMust'>): string[] {
  if (!summary.toComplete.length) return [];
  return [
    `To complete this certification (${summary.unjudgedMust} MUST case(s) not judged):`,
    ...summary.toComplete.map((t) => {
      const ids = `${t.cases.slice(0, SHOWN).join(', ')}${t.cases.length > SHOWN ? `, +${t.cases.length - SHOWN} more` : ''}`;
      return `  - ${plain(t.unlock)}: ${plain(t.how)} (${t.cases.length} case(s): ${ids})`;
    }),
  ];
}

/** The closing lines of a run on the console. */
export function verdictSummary(s: Summary): string {
  const counts = Object.entries(s.byVerdict).map(([k, v]) => `${v} ${k}`).join(', ');
  return [`${verdictLine(s)} (${counts}${s.failOn === 'should' ? '; --fail-on should' : ''})`, ...toCompleteLines(s), ''].join('\n');
}
