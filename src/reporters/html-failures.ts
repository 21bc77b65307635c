// The top of report.html: its failures grouped by the clause that broke and its finding, worst first; read-back
// failures by the write that caused them (src/core/failures.ts).
import { causedStep, failureGroups, type FailureGroup } from '../core/failures.js';
import type { CaseResult } from '../core/results.js';
import { anchor, badge, esc, plural, targetText } from './html-text.js';

/** How many groups of failures the top of the page lists before pointing at the rest, and cases per group. */
const TOP_LINES = 12;
const TOP_CASES = 4;

/**
 * The failures under the verdict, grouped by the clause that broke and its finding (src/core/failures.ts, as the
 * console groups them): the clause's level, how many cases, and the first cases as links to their evidence with the
 * step that broke it. What to fix first, on the first screen.
 */
export function blockers(failing: CaseResult[]): string {
  const groups = failureGroups(failing);
  const word = { MUST: 'fail', SHOULD: 'warn', ERROR: 'error' } as const;
  const line = (g: FailureGroup): string => {
    const other = g.findings > 1 ? ` <span class="muted">(+${plural(g.findings - 1, 'other finding')})</span>` : '';
    const cases = g.cases.slice(0, TOP_CASES).map((c) => `<a href="#${esc(anchor('failure', c.id))}"><code>${esc(c.id)}</code></a>${c.step ? ` <span class="muted">${esc(causedStep(c))}</span>` : ''}`);
    const rest = g.cases.length - TOP_CASES;
    const what = g.cause
      ? `<span class="cause">caused by a <b>${esc(g.cause.method)}</b>:</span> ${g.cause.clauses.map((c) => `<code class="clause">${esc(c)}</code>`).join(', ')} `
      : g.clause === '-' ? '' : `<code class="clause">${esc(g.clause)}</code> `;
    return `<li><div class="group">${badge(word[g.level])} <span class="level">${esc(g.level === 'ERROR' ? 'no judgement' : g.level)}</span> ${what}— ${plural(g.cases.length, 'case')}: ${targetText(g.finding)}${other}</div>`
      + `<div class="group-cases">${cases.join(', ')}${rest > 0 ? `, <span class="muted">+${rest} more below</span>` : ''}</div></li>`;
  };
  const rest = groups.length - TOP_LINES;
  return `<ol class="blockers" aria-label="Failures by clause, worst first">${groups.slice(0, TOP_LINES).map(line).join('')}${rest > 0 ? `<li class="more"><a href="#failures">and ${plural(rest, 'more group')} of failures below</a></li>` : ''}</ol>`;
}
