// The CI example cannot run here (it needs GitHub and a staging target), so its parts are checked against the
// harness it drives: the flags exist, the secrets go through the environment, the paths are where reports land.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../spec/index.js';
import { writeReports } from './files.js';
import { ruleBreakingReport } from '../../test/support/rule-breaker.js';
import { minimalCase, minimalReport } from '../../test/support/reports.js';
import { summarise } from '../core/verdict.js';

interface Step { name?: string; uses?: string; run?: string; if?: string; env?: Record<string, string>; with?: Record<string, unknown> }

/** The code spans of a Markdown text: a run of backticks up to the next run of the same length (CommonMark 6.1). */
function codeSpans(md: string): string[] {
  return [...md.matchAll(/(?<!\\|`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)].map((m) => m[2] as string);
}
const outsideCodeSpans = (md: string): string => md.replace(/(?<!\\|`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, '');

describe('examples/', function () {
  this.timeout(30_000);

  it('github-actions.yml runs rdx with secrets from the environment, uploads reports/ and publishes junit.xml', () => {
    const workflow = parseYaml(readFileSync(join(packageRoot, 'examples', 'github-actions.yml'), 'utf8')) as {
      permissions: Record<string, string>; jobs: Record<string, { steps: Step[] }>;
    };
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const run = steps.find((s) => s.run?.startsWith('rdx run'));
    expect(run?.env).to.deep.include({ RDX_CLIENT_ID: '${{ secrets.RDX_CLIENT_ID }}', RDX_CLIENT_SECRET: '${{ secrets.RDX_CLIENT_SECRET }}' });
    expect(run?.run).to.not.match(/--client-secret|secrets\./);
    const help = spawnSync(process.execPath, [join(packageRoot, 'dist', 'src', 'cli', 'main.js'), 'run', '--help'], { encoding: 'utf8' }).stdout;
    for (const flag of run?.run?.match(/--[a-z-]+/g) ?? []) expect(help, flag).to.include(flag);
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.['path']).to.equal('reports/');
    expect(upload?.if).to.include('!cancelled()');
    const publish = steps.find((s) => s.uses?.startsWith('EnricoMi/publish-unit-test-result-action@'));
    expect(publish?.with?.['files']).to.equal('reports/latest/junit.xml');
    expect(workflow.permissions['checks']).to.equal('write');
  });

  it('github-actions.yml compares with the last green run of main (rdx diff, flags that exist) and keeps green runs of main only', () => {
    const workflow = parseYaml(readFileSync(join(packageRoot, 'examples', 'github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const diff = steps.find((s) => s.run?.startsWith('rdx diff'));
    expect(diff?.run).to.include('rdx-last-green/report.json reports/latest/report.json').and.include('--fail-on-regression');
    const help = spawnSync(process.execPath, [join(packageRoot, 'dist', 'src', 'cli', 'main.js'), 'diff', '--help'], { encoding: 'utf8' }).stdout;
    for (const flag of diff?.run?.match(/--[a-z-]+/g) ?? []) expect(help, flag).to.include(flag);
    const restore = steps.findIndex((s) => s.uses?.startsWith('actions/cache/restore@'));
    const save = steps.find((s) => s.uses?.startsWith('actions/cache/save@'));
    expect(restore).to.be.lessThan(steps.findIndex((s) => s.run?.startsWith('rdx run')));
    expect(steps[restore]?.with?.['path']).to.equal(save?.with?.['path']);
    expect(save?.if).to.include("github.ref == 'refs/heads/main'").and.include('success()');
  });

  it('job-summary.mjs turns a report into a Markdown verdict with its failures grouped by clause', async () => {
    const written = writeReports(await ruleBreakingReport('^token\\.issued |^job-offers\\.unknown-id\\.get '), mkdtempSync(join(tmpdir(), 'rdx-summary-')));
    const r = spawnSync(process.execPath, [join(packageRoot, 'examples', 'job-summary.mjs'), join(written.dir, 'report.json')], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^### RDX conformance: NOT CONFORMANT\n/);
    // The level of the clause that broke (MUST), not the case's (SHOULD), as the console groups it.
    expect(r.stdout).to.include('**Failures by clause** (2 group(s), 1 case(s), worst first;');
    expect(r.stdout).to.include('| FAIL | MUST | `ENVELOPE.MESSAGE` | 1: `job-offers.unknown-id.get` | status 404: message is missing |');
    const missing = spawnSync(process.execPath, [join(packageRoot, 'examples', 'job-summary.mjs'), '/nonexistent/report.json'], { encoding: 'utf8' });
    expect(missing.status).to.equal(0);
    expect(missing.stdout).to.match(/^### RDX conformance: no report/);
  });

  it('job-summary.mjs keeps a target\'s text text: no HTML comment, image, link, mention, control byte or broken cell', () => {
    // What a target (or whoever wrote the report) may put into a finding, a case id, a level and the verdict counts.
    const hostile = 'a <!-- hide the rest --> <img src=x onerror=alert(1)> ![x](http://127.0.0.2/p.png) [click](http://127.0.0.2/) @everyone **bold** `tick` | cell \x1b[2J\x07\x9b31m\u202eevil\u200b\r\nnext';
    const c = minimalCase({ id: `case.${hostile}`, level: 'MUST', verdict: 'fail', assertions: [{ clause: `X.${hostile}`, level: 'MUST', passed: false, message: hostile, check: 'c' }] });
    const report = { ...minimalReport([c]), summary: { ...summarise([c]), byVerdict: { [hostile]: 1 }, mustFailures: hostile as unknown as number } };
    report.run.target.baseUrl = `http://127.0.0.1:1/${hostile}`;
    const file = join(mkdtempSync(join(tmpdir(), 'rdx-summary-hostile-')), 'report.json');
    writeFileSync(file, JSON.stringify(report));
    const r = spawnSync(process.execPath, [join(packageRoot, 'examples', 'job-summary.mjs'), file], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    const out = r.stdout;
    // eslint-disable-next-line no-control-regex
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.exec(out)?.[0], 'a control character').to.equal(undefined);
    // Code spans show their text literally (CommonMark 6.1): what matters is the Markdown outside them.
    const prose = outsideCodeSpans(out);
    expect(prose).to.not.include('<!--').and.not.include('<img').and.not.match(/!?\[[^\]\\]*\]\(/).and.not.include('@everyone').and.not.include('**bold**');
    for (const span of codeSpans(out)) expect(span).to.not.include('\n');
    expect(out).to.include('&lt;!-- hide the rest --&gt;').and.include('＠everyone').and.include('\\*\\*bold\\*\\*');
    // Each row of the failures table has its six cell borders: an escaped pipe does not end a cell.
    const row = out.split('\n').find((l) => l.startsWith('| FAIL |')) ?? '';
    expect(row.replace(/\\\|/g, '').split('|')).to.have.length(7);
    expect(out.split('\n').filter((l) => l.includes('hide the rest'))).to.have.length.above(0);
    expect(out).to.not.match(/^next/m);
  });
});
