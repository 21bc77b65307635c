// Writes a short Markdown summary of an rdx report for a CI job page (GitHub: append it to $GITHUB_STEP_SUMMARY):
// the verdict, the counts, what would complete the run, and its failures grouped by clause (as the console groups
// them) with their finding. The full evidence stays in
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

// The failures grouped as src/core/failures.ts groups them for the console and report.html (a copy, held to it by
// src/cli/consistency.test.ts): one group per level, clause and check; a read-back failure (the clauses below) by
// the method of the write before the read that showed it, so one bug is one group whatever clauses it broke.
const READ_BACK_CLAUSES = ['WRITE.READ_BACK', 'WRITE.PATCH_PARTIAL', 'WRITE.PUT_CLEARS_OMITTED', 'DELETE.REMOVES', 'REQUEST.REFUSED_CHANGES_NOTHING'];
const GROUP_WORD = { MUST: 'FAIL', SHOULD: 'WARN', ERROR: 'ERROR' };
const SHOWN_CASES = 5;
const causeMethod = (exchanges, index) => {
  if (!Number.isInteger(index)) return undefined;
  for (let i = Math.min(index, exchanges.length - 1); i >= 0; i--) {
    const request = isObject(exchanges[i]) && isObject(exchanges[i].request) ? exchanges[i].request : undefined;
    const method = String(request?.method ?? '').toUpperCase();
    if (request && !['GET', 'HEAD', 'OPTIONS'].includes(method) && !/\/oauth2\/token\/?(?:\?|$)/.test(String(request.url))) return method;
  }
  return undefined;
};
function failureGroups(cases) {
  const groups = new Map();
  const add = (key, fresh, clause, message, id) => {
    const entry = groups.get(key) ?? { group: { ...fresh, cases: [] }, messages: new Map(), clauses: new Map() };
    groups.set(key, entry);
    entry.messages.set(message, (entry.messages.get(message) ?? 0) + 1);
    entry.clauses.set(clause, (entry.clauses.get(clause) ?? new Set()).add(id));
    if (!entry.group.cases.includes(id)) entry.group.cases.push(id);
  };
  for (const c of cases.filter((x) => isObject(x) && PROBLEM_VERDICTS.includes(shownVerdict(x)))) {
    const broken = list(c.assertions).filter((a) => isObject(a) && !a.passed);
    for (const a of broken) {
      const method = READ_BACK_CLAUSES.includes(a.clause) ? causeMethod(list(c.exchanges), a.exchange) : undefined;
      const fresh = { clause: a.clause, level: a.level, finding: a.message };
      if (method) add(`${a.level}\u0000cause\u0000${method}`, { ...fresh, cause: { method } }, a.clause, a.message, c.id);
      else add(`${a.level}\u0000${a.clause}\u0000${a.check}`, fresh, a.clause, a.message, c.id);
    }
    if (!broken.length) add('ERROR\u0000-\u0000-', { clause: '-', level: 'ERROR', finding: c.reason ?? 'the case errored' }, '-', c.reason ?? 'the case errored', c.id);
  }
  const order = { ERROR: 0, MUST: 1, SHOULD: 2 };
  return [...groups.values()].map(({ group, messages, clauses }) => {
    let finding = group.finding;
    for (const [message, n] of messages) if (n > (messages.get(finding) ?? 0)) finding = message;
    const byCount = [...clauses].sort((a, b) => b[1].size - a[1].size || String(a[0]).localeCompare(String(b[0]))).map(([clause]) => clause);
    return { ...group, finding, findings: messages.size, ...(group.cause ? { clause: byCount[0], cause: { ...group.cause, clauses: byCount } } : {}) };
  }).sort((a, b) => (order[a.level] ?? 3) - (order[b.level] ?? 3) || b.cases.length - a.cases.length || String(a.clause).localeCompare(String(b.clause)));
}

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
const groups = failureGroups(report.cases);
if (groups.length) {
  const cases = new Set(groups.flatMap((g) => g.cases)).size;
  lines.push('', `**Failures by clause** (${groups.length} group(s), ${cases} case(s), worst first; report.html has each one's evidence):`, '',
    '| Verdict | Level | Clause | Cases | Finding |', '|---|---|---|---|---|');
  for (const g of groups) {
    const what = g.cause ? `caused by a ${cell(g.cause.method)}: ${g.cause.clauses.map((c) => code(c)).join(', ')}` : g.clause === '-' ? 'no judgement' : code(g.clause);
    const shown = g.cases.slice(0, SHOWN_CASES).map((id) => code(id)).join(', ');
    const other = g.findings > 1 ? ` (+${g.findings - 1} other finding(s))` : '';
    lines.push(`| ${Object.hasOwn(GROUP_WORD, g.level) ? GROUP_WORD[g.level] : cell(g.level)} | ${cell(g.level)} | ${what} | ${g.cases.length}: ${shown}${g.cases.length > SHOWN_CASES ? `, +${g.cases.length - SHOWN_CASES} more` : ''} | ${cell(g.finding)}${other} |`);
  }
}
lines.push('', 'Evidence for every case (request, response, curl line) is in report.html in the reports artifact.', '');
process.stdout.write(lines.join('\n'));
