// Writes a short Markdown summary of an rdx report for a CI job page (GitHub: append it to $GITHUB_STEP_SUMMARY):
// the verdict, the counts, and one line per failure with its clause and finding. The full evidence stays in
// report.html. Plain Node (20+), no dependencies, so it can be copied next to a workflow as it is.
//
//   node job-summary.mjs reports/latest/report.json >> "$GITHUB_STEP_SUMMARY"
import { readFileSync } from 'node:fs';
import process from 'node:process';

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
  process.stdout.write(`### RDX conformance: no report\n\n${file}: ${error.message}\n`);
  process.exit(0);
}
if (report?.format !== 'rdx-report/1') {
  process.stderr.write(`${file}: format: expected "rdx-report/1", got ${JSON.stringify(report?.format)}\n`);
  process.exit(2);
}

// Markdown tables break on pipes and newlines that a target's messages may contain.
const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 300);
const s = report.summary;
// The run's verdict as the harness words it (an INCOMPLETE run is not a failed one); reports of old harnesses have none.
const VERDICT_WORDS = { CONFORMANT: 'CONFORMANT', INCOMPLETE: 'INCOMPLETE', KNOWN_FAILURES: 'KNOWN FAILURES', NOT_CONFORMANT: 'NOT CONFORMANT' };
const lines = [
  `### RDX conformance: ${VERDICT_WORDS[s.verdict] ?? (s.conformant ? 'CONFORMANT' : 'NOT CONFORMANT')}`,
  '',
  `${s.mustFailures} MUST failure(s), ${s.errors} error(s) · ${Object.entries(s.byVerdict).map(([v, n]) => `${n} ${v}`).join(', ')}`,
  '',
  `Target \`${report.run.target.baseUrl}\` · harness ${report.harness.version} · spec \`${report.spec.hash.slice(0, 12)}\` · run \`${report.run.id}\``,
];
const failing = report.cases.filter((c) => !c.baseline && ['fail', 'error', 'warn'].includes(c.verdict));
if (failing.length) {
  lines.push('', '| Verdict | Level | Case | Broken clause | Finding |', '|---|---|---|---|---|');
  for (const c of failing) {
    const first = c.assertions.find((a) => !a.passed);
    lines.push(`| ${c.verdict.toUpperCase()} | ${c.level} | \`${cell(c.id)}\` | ${cell(first?.clause ?? '')} | ${cell(first?.message ?? c.reason)} |`);
  }
}
lines.push('', 'Evidence for every case (request, response, curl line) is in report.html in the reports artifact.', '');
process.stdout.write(lines.join('\n'));
