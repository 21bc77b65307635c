// The run's verdict in the console's words: summary.verdict and its facts as the engine wrote them (src/core/verdict.ts
// decides them, once); nothing here derives a verdict or a count of its own.
import type { Summary } from '../core/report.js';
import { verdictLine } from '../core/verdict.js';
import { escapeTerminal } from '../core/terminal.js';
import { countsInOrder } from '../core/case-view.js';
import { failureGroups } from '../core/failures.js';
import type { CaseResult } from '../core/results.js';

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

/** What the run leaves for the reader to do: the console's last line. */
export interface NextStepFacts {
  /** The report.html just written, if any. */
  html?: string;
  /** The bundle written, if any, and whether it is signed. */
  bundle?: 'signed' | 'unsigned';
}

/**
 * "Next: …": one line saying what to do now, from the verdict: fix the first failure group (where its evidence and
 * replay script are, and which flags re-judge its clauses), unlock the MUST cases not judged, or sign and publish.
 */
export function nextStepLine(s: Summary, cases: CaseResult[], facts: NextStepFacts = {}): string {
  const where = facts.html ? `${facts.html}#failures` : 'report.html';
  const first = failureGroups(cases)[0];
  if (first) {
    const clauses = first.cause?.clauses ?? (first.clause === '-' ? [] : [first.clause]);
    const evidence = first.cause
      ? `the ${first.cause.method} that caused each failure first, then the read that showed it, with a curl script replaying both`
      : 'its exchanges and a curl line for each';
    const rerun = clauses.length ? `; after a fix, re-judge it with the same flags and ${clauses.map((c) => `--clause ${escapeTerminal(c)}`).join(' ')}` : '';
    return `Next: fix the first failure group above (${first.cases.length} case(s)): ${where} shows ${evidence}${rerun}.`;
  }
  if (s.unjudgedMust) return 'Next: unlock the MUST cases not judged (the list above), then run again: the run cannot be CONFORMANT before they are judged.';
  if (s.knownFailures) return `Next: fix the known failures (report.html lists them under "Known failures"), then drop them from the baseline.`;
  if (facts.bundle === 'signed') return 'Next: publish bundle.tar.gz, and your public key where readers already trust you; they check it with rdx verify --public-key.';
  if (facts.bundle === 'unsigned') return 'Next: sign the bundle (rdx keygen, then rdx run --bundle --sign-key KEY) or publish its manifest SHA-256 above, so readers can check who made it.';
  return 'Next: run again with --bundle --sign-key KEY (rdx keygen makes one) for a signed certification bundle (docs/reports.md).';
}
