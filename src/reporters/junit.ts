// JUnit XML: one testsuite per suite file, one testcase per case; a failure's message names the clause.
import type { RunReport } from '../core/report.js';
import type { CaseResult } from '../core/results.js';
import { VERDICT_WORDS, verdictLine } from '../core/verdict.js';
import { escapeXml } from './xml.js';

const escape = escapeXml;

function testcase(c: CaseResult): string {
  const name = escape(`[${c.level}] ${c.id}: ${c.title}`);
  const open = `    <testcase classname="${escape(c.file.replace(/:\d+$/, ''))}" name="${name}" time="${(c.durationMs / 1000).toFixed(3)}"`;
  const failed = c.assertions.filter((a) => !a.passed);
  if ((c.verdict === 'fail' || c.verdict === 'warn') && c.baseline) {
    return `${open}>\n      <skipped message="${escape(`known failure (baseline): ${c.baseline.reason}`)}"/>\n    </testcase>`;
  }
  if (c.verdict === 'fail' || c.verdict === 'warn') {
    const first = failed[0];
    const message = first ? `${first.level} ${first.clause}: ${first.message}` : c.verdict;
    const detail = failed.map((a) => `${a.level} ${a.clause} [${a.check}]: ${a.message}`).join('\n');
    return `${open}>\n      <failure type="${c.verdict === 'fail' ? 'MUST' : 'SHOULD'}" message="${escape(message)}">${escape(detail)}</failure>\n    </testcase>`;
  }
  if (c.verdict === 'skip') return `${open}>\n      <skipped message="${escape(c.reason ?? 'skipped')}"/>\n    </testcase>`;
  if (c.verdict === 'error') return `${open}>\n      <error type="harness" message="${escape(c.reason ?? 'error')}"/>\n    </testcase>`;
  if (c.verdict === 'observed') {
    const seen = c.observations.map((o) => `${o.interpretation}${o.key ? `.${o.key}` : ''} = ${JSON.stringify(o.value)}`).join('\n');
    return `${open}>\n      <system-out>${escape(`observed:\n${seen}`)}</system-out>\n    </testcase>`;
  }
  return `${open}/>`;
}

export function junitXml(report: RunReport): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const c of report.cases) {
    const file = c.file.replace(/:\d+$/, '');
    const list = byFile.get(file) ?? [];
    list.push(c);
    byFile.set(file, list);
  }
  const count = (cs: CaseResult[], pred: (c: CaseResult) => boolean): number => cs.filter(pred).length;
  const isFailure = (c: CaseResult): boolean => (c.verdict === 'fail' || c.verdict === 'warn') && !c.baseline;
  const isSkipped = (c: CaseResult): boolean => c.verdict === 'skip' || (!!c.baseline && (c.verdict === 'fail' || c.verdict === 'warn'));
  const suites = [...byFile].map(([file, cs]) => [
    `  <testsuite name="${escape(file)}" tests="${cs.length}" failures="${count(cs, isFailure)}" errors="${count(cs, (c) => c.verdict === 'error')}" skipped="${count(cs, isSkipped)}" time="${(cs.reduce((t, c) => t + c.durationMs, 0) / 1000).toFixed(3)}">`,
    ...cs.map(testcase),
    '  </testsuite>',
  ].join('\n'));
  const all = report.cases;
  const incomplete = report.summary.verdict === 'INCOMPLETE' ? 1 : 0;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="rdx-conformance ${escape(report.harness.version)} against ${escape(report.run.target.baseUrl)}" tests="${all.length + 1}" failures="${count(all, isFailure) + incomplete}" errors="${count(all, (c) => c.verdict === 'error')}" skipped="${count(all, isSkipped)}" time="${(report.run.durationMs / 1000).toFixed(3)}">`,
    verdictSuite(report),
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The run's verdict as a suite of its own: properties for tools, and one test case that fails when the run is
 * INCOMPLETE, listing what would complete it (a CI page must not show an incomplete run green).
 */
function verdictSuite(report: RunReport): string {
  const s = report.summary;
  const props = [
    ['verdict', s.verdict], ['line', verdictLine(s)], ['conformant', String(s.conformant)], ['total', String(s.total)],
    ['mustFailures', String(s.mustFailures)], ['errors', String(s.errors)], ['shouldWarnings', String(s.shouldWarnings)],
    ['knownFailures', String(s.knownFailures)], ['unjudgedMust', String(s.unjudgedMust)], ['failOn', s.failOn],
    ...s.toComplete.map((t, i) => [`toComplete.${i}`, `${t.unlock}: ${t.how} (${t.cases.join(', ')})`]),
  ].map(([k, v]) => `      <property name="${escape(k ?? '')}" value="${escape(v ?? '')}"/>`);
  const open = `    <testcase classname="rdx-conformance" name="${escape(`verdict: ${VERDICT_WORDS[s.verdict]}`)}" time="0.000"`;
  const detail = s.toComplete.map((t) => `${t.unlock}: ${t.how}\n  ${t.cases.join(', ')}`).join('\n');
  const testcase = s.verdict === 'INCOMPLETE'
    ? `${open}>\n      <failure type="INCOMPLETE" message="${escape(`${s.unjudgedMust} MUST case(s) not judged; to complete this certification:`)}">${escape(detail)}</failure>\n    </testcase>`
    : `${open}/>`;
  return [
    `  <testsuite name="rdx-conformance verdict" tests="1" failures="${s.verdict === 'INCOMPLETE' ? 1 : 0}" errors="0" skipped="0" time="0.000">`,
    '    <properties>', ...props, '    </properties>',
    testcase,
    '  </testsuite>',
  ].join('\n');
}
