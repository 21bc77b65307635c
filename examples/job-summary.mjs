// Writes a short Markdown summary of an rdx report for a CI job page (GitHub: append it to $GITHUB_STEP_SUMMARY):
// the verdict, the counts, and one line per failure with its clause and finding. The full evidence stays in
// report.html. Plain Node (20+), no dependencies, so it can be copied next to a workflow as it is.
//
//   node job-summary.mjs reports/latest/report.json >> "$GITHUB_STEP_SUMMARY"
import { readFileSync } from 'node:fs';
import process from 'node:process';

// What this prints comes from the report, and a report carries a target's text: it must stay text on the job page.
// Controls and invisible reordering marks are dropped (C0, DEL, C1, zero-width and bidi characters); HTML is
// written as entities, so `<!--` cannot hide the rest of the page nor `<img>` load anything; the Markdown that
// makes links, images, emphasis and table cells is backslash-escaped; `@` becomes the full-width `＠`, so
// `@everyone` mentions no one. Long text is cut: report.html has the whole of it.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const ENTITY = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };
const flat = (value, max) => {
  const one = String(value ?? '').replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};
const cell = (value, max = 300) => flat(value, max).replace(/[<>&]/g, (ch) => ENTITY[ch]).replace(/[\\`*_~[\]|]/g, '\\$&').replace(/@/g, '＠');
// An identifier in a code span: nothing in it is Markdown or HTML; the fence is longer than any backtick run in it.
const code = (value, max = 120) => {
  const one = flat(value, max).replace(/\|/g, '\\|');
  if (!one) return '';
  const fence = '`'.repeat(Math.max(0, ...(one.match(/`+/g) ?? []).map((m) => m.length)) + 1);
  return `${fence}${one.startsWith('`') || one.endsWith('`') ? ` ${one} ` : one}${fence}`;
};
const list = (value) => (Array.isArray(value) ? value : []);
// How a case is shown, as src/core/case-view.ts shows it in every other output (this file keeps a copy so that it
// needs nothing installed; src/cli/consistency.test.ts holds the two to each other): verdicts worst first, a case the
// baseline excuses shown as known-failure, and the verdicts a failure list shows.
const CASE_VERDICTS = ['fail', 'error', 'warn', 'known-failure', 'skip', 'pass', 'observed'];
const PROBLEM_VERDICTS = ['fail', 'error', 'warn'];
const shownVerdict = (c) => (c.baseline ? 'known-failure' : c.verdict);
const rank = (verdict) => (CASE_VERDICTS.includes(verdict) ? CASE_VERDICTS.length - CASE_VERDICTS.indexOf(verdict) : -1);
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node job-summary.mjs <report.json>\n');
  process.exit(2);
}

let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  // No report means the run stopped before judging anything (bad config, unreachable target): say so, do not crash.
  process.stdout.write(`### RDX conformance: no report\n\n${cell(`${file}: ${error.message}`)}\n`);
  process.exit(0);
}
if (report?.format !== 'rdx-report/1') {
  process.stderr.write(`${file}: format: expected "rdx-report/1", got ${flat(JSON.stringify(report?.format), 60)}\n`);
  process.exit(2);
}

// The verdict and its counts as the report states them (summary): this script derives none of its own.
const s = report.summary;
if (!isObject(s) || !Array.isArray(report.cases) || !isObject(report.run) || !isObject(report.harness) || !isObject(report.spec)) {
  process.stderr.write(`${file}: not a report of this format (summary, cases, run, harness or spec missing)\n`);
  process.exit(2);
}
const WORDS = { CONFORMANT: 'CONFORMANT', INCOMPLETE: 'INCOMPLETE', KNOWN_FAILURES: 'KNOWN FAILURES', NOT_CONFORMANT: 'NOT CONFORMANT' };
const word = Object.hasOwn(WORDS, s.verdict) ? WORDS[s.verdict] : cell(s.verdict);
const byVerdict = isObject(s.byVerdict) ? Object.entries(s.byVerdict).sort(([a], [b]) => rank(b) - rank(a)).map(([v, n]) => `${cell(n)} ${cell(v)}`).join(', ') : '';
const lines = [
  `### RDX conformance: ${word}`,
  '',
  `${cell(s.mustFailures)} MUST failure(s), ${cell(s.errors)} error(s), ${cell(s.shouldWarnings)} SHOULD warning(s)${s.failOn === 'should' ? ' (failing: --fail-on should)' : ''}, ${cell(s.unjudgedMust)} MUST case(s) not judged, ${cell(s.knownFailures)} known failure(s) · ${byVerdict}`,
  '',
  `Target ${code(report.run.target?.baseUrl)} · harness ${cell(report.harness.version)} · spec ${code(String(report.spec.hash ?? '').slice(0, 12))} · run ${code(report.run.id)}`,
];
const toComplete = list(s.toComplete).filter(isObject);
if (toComplete.length) {
  lines.push('', `**To complete this certification** (${cell(s.unjudgedMust)} MUST case(s) not judged):`, '', '| Unlock | How | Cases |', '|---|---|---|');
  for (const t of toComplete) {
    const cases = list(t.cases);
    lines.push(`| ${code(t.unlock)} | ${cell(t.how)} | ${cases.length}: ${cell(cases.slice(0, 5).join(', '))}${cases.length > 5 ? ', …' : ''} |`);
  }
}
const failing = report.cases.filter((c) => isObject(c) && PROBLEM_VERDICTS.includes(shownVerdict(c)))
  .sort((a, b) => rank(shownVerdict(b)) - rank(shownVerdict(a)));
if (failing.length) {
  lines.push('', '| Verdict | Level | Case | Broken clause | Finding |', '|---|---|---|---|---|');
  for (const c of failing) {
    const first = list(c.assertions).find((a) => isObject(a) && !a.passed);
    lines.push(`| ${c.verdict.toUpperCase()} | ${cell(c.level)} | ${code(c.id)} | ${cell(first?.clause ?? '')} | ${cell(first?.message ?? c.reason)} |`);
  }
}
lines.push('', 'Evidence for every case (request, response, curl line) is in report.html in the reports artifact.', '');
process.stdout.write(lines.join('\n'));
