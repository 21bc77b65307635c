// rdx diff on two real runs: the bundled simulator, then the same simulator with a fault persona (missing-message:
// no `message` in the envelope), through the engine and through the CLI.
import { embeddedSimulator } from '../cli/compose.js';
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaults } from '../config/profile.js';
import { runConformance, type RunReport } from '../engine/run.js';
import { packageRoot } from '../spec/index.js';
import { personaByName } from '../../simulator/personas/index.js';
import { diffMarkdown, diffReports, diffText, type ReportDiff } from './diff.js';
import { writeReportFiles } from './files.js';
import { reportBadge } from './badge.js';

const GREP = '^envelope\\.|^token\\.issued |^auth\\.no-header\\.list-job-offers ';
const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');
const rdx = (args: string[]): { code: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: packageRoot, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('rdx diff', function () {
  this.timeout(90_000);
  let plain: RunReport;
  let faulty: RunReport;
  let forward: ReportDiff;
  const dir = mkdtempSync(join(tmpdir(), 'rdx-diff-'));

  before(async () => {
    plain = (await runConformance({ profile: defaults(), reporter: 'none', filters: { grep: GREP }, simulator: embeddedSimulator() })).report;
    faulty = (await runConformance({
      profile: defaults(), reporter: 'none', filters: { grep: GREP }, simulator: embeddedSimulator({ personas: [personaByName('missing-message')!] }),
    })).report;
    forward = diffReports('plain.json', plain, 'faulty.json', faulty);
    writeReportFiles(plain, join(dir, 'plain'), { json: true, bundle: true });
    writeReportFiles(faulty, join(dir, 'faulty'), { json: true });
  });

  it('lists the cases the fault broke as newly failing, with the clause, and counts the MUST ones as regressions', () => {
    const broken = faulty.cases.filter((c) => c.verdict === 'fail').map((c) => c.id).sort();
    expect(broken.length).to.be.greaterThan(0);
    expect(plain.cases.filter((c) => c.verdict === 'fail')).to.deep.equal([]);
    expect(forward.newlyFailing.map((c) => c.id).sort()).to.deep.equal(broken);
    for (const c of forward.newlyFailing) {
      expect(c.old).to.equal('pass');
      expect(c.clauses).to.include('ENVELOPE.MESSAGE');
      expect(c.finding).to.match(/^ENVELOPE\.MESSAGE: status \d+: message is missing/);
    }
    expect(forward.regressions).to.equal(forward.newlyFailing.length + forward.newlyUnjudged.filter((c) => c.level === 'MUST').length);
    expect(forward.newlyPassing).to.deep.equal([]);
    expect(forward.clauses.find((c) => c.clause === 'ENVELOPE.MESSAGE')).to.deep.include({ old: 'held', new: 'broken' });
    expect(forward.old.verdict).to.not.equal('NOT_CONFORMANT');
    expect(forward.new.verdict).to.equal('NOT_CONFORMANT');
    expect(forward.notes).to.deep.equal([]);
  });

  it('reads the fix the other way round: newly passing, no regression', () => {
    const back = diffReports('faulty.json', faulty, 'plain.json', plain);
    expect(back.newlyPassing.map((c) => c.id).sort()).to.deep.equal(forward.newlyFailing.map((c) => c.id).sort());
    expect(back.newlyFailing).to.deep.equal([]);
    expect(back.regressions).to.equal(0);
    expect(back.clauses.find((c) => c.clause === 'ENVELOPE.MESSAGE')).to.deep.include({ old: 'broken', new: 'held' });
  });

  it('finds nothing between a run and itself', () => {
    const same = diffReports('a', plain, 'b', plain);
    for (const list of [same.newlyFailing, same.newlyPassing, same.newlyUnjudged, same.otherChanges, same.clauses, same.observations, same.added, same.removed]) {
      expect(list).to.deep.equal([]);
    }
    expect(same.latency.every((l) => !l.slower)).to.equal(true);
  });

  it('shows open points observed differently, cases newly unjudged, and an endpoint that got slower', () => {
    const later = structuredClone(plain);
    const point = later.implementationProfile.find((p) => p.observed.length) as RunReport['implementationProfile'][number];
    const was = JSON.stringify(point.observed[0]?.value);
    for (const o of point.observed) o.value = 'something else';
    const must = later.cases.find((c) => c.level === 'MUST' && c.verdict === 'pass') as RunReport['cases'][number];
    must.verdict = 'skip';
    must.reason = 'not run (deadline)';
    const [endpoint, timing] = Object.entries(later.latency)[0] as [string, RunReport['latency'][string]];
    later.latency[endpoint] = { ...timing, p95Ms: timing.p95Ms * 3 + 200 };
    const d = diffReports('a', plain, 'b', later);
    const changed = d.observations.filter((o) => o.interpretation === point.id);
    expect(changed).to.not.deep.equal([]);
    for (const o of changed) expect(o.new).to.deep.equal(['"something else"']);
    expect(changed.flatMap((o) => o.old)).to.include(was);
    expect(d.newlyUnjudged).to.deep.equal([{ id: must.id, level: 'MUST', title: must.title, old: 'pass', new: 'skip', clauses: [], finding: 'not run (deadline)' }]);
    expect(d.regressions).to.equal(1);
    expect(d.latency.filter((l) => l.slower).map((l) => String(l.endpoint))).to.deep.equal([endpoint]);
    const text = diffText(d, (t) => t);
    expect(text).to.include('Newly unjudged (1):').and.include('Slower endpoints').and.include('not a load test');
    expect(diffMarkdown(d)).to.include('#### Latency').and.include('| # | Operation | p50 | p95 | max |');
  });

  it('keeps a target\'s text inside its Markdown table cell', () => {
    const later = structuredClone(faulty);
    const c = later.cases.find((x) => x.verdict === 'fail') as RunReport['cases'][number];
    const a = c.assertions.find((x) => !x.passed) as RunReport['cases'][number]['assertions'][number];
    a.message = 'got `x` | <img src=x onerror=alert(1)>\n# heading';
    const md = diffMarkdown(diffReports('a', plain, 'b', later));
    const row = md.split('\n').find((l) => l.includes(c.id) && l.includes('onerror')) as string;
    expect(row).to.be.a('string');
    expect(row).to.not.include('<img').and.not.match(/[^\\]\| <img/);
    expect(row.split(/(?<!\\)\|/)).to.have.length(8);
    expect(md).to.not.match(/^# heading/m);
  });

  it('works from the command line on report.json and bundle files: console, Markdown, JSON and the regression gate', () => {
    const old = join(dir, 'plain', 'bundle.tar.gz');
    const now = join(dir, 'faulty', 'report.json');
    const gate = rdx(['diff', old, now, '--fail-on-regression', '--markdown', join(dir, 'diff.md'), '--json', join(dir, 'diff.json')]);
    expect(gate.code, gate.stderr).to.equal(1);
    expect(gate.stdout).to.match(/^rdx diff: /).and.match(/Newly failing \(\d+\):/).and.match(/Regressions: [1-9]/);
    expect(gate.stdout).to.not.match(/\n\s+at /);
    expect(readFileSync(join(dir, 'diff.md'), 'utf8')).to.match(/^### RDX conformance diff: \S.* → NOT CONFORMANT \(\d+ regressions?\)/);
    expect((JSON.parse(readFileSync(join(dir, 'diff.json'), 'utf8')) as ReportDiff).newlyFailing.length).to.equal(forward.newlyFailing.length);
    expect(rdx(['diff', old, now]).code).to.equal(0);
    const fixed = rdx(['diff', now, old, '--fail-on-regression', '--format', 'json']);
    expect(fixed.code, fixed.stderr).to.equal(0);
    expect((JSON.parse(fixed.stdout) as ReportDiff).newlyPassing.length).to.equal(forward.newlyFailing.length);
    // A bundle whose hashes do not hold is not compared.
    const tampered = join(dir, 'tampered.tar.gz');
    const bytes = readFileSync(old);
    bytes[bytes.length - 20] = (bytes[bytes.length - 20] as number) ^ 0xff;
    writeFileSync(tampered, bytes);
    const refused = rdx(['diff', tampered, now]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.match(/^rdx: .*tampered\.tar\.gz: /).and.not.match(/\n\s+at /);
  });

  it('rdx badge writes the verdict badge from a report or a verified bundle', () => {
    const svgFile = join(dir, 'badge.svg');
    const ok = rdx(['badge', join(dir, 'faulty', 'report.json'), '--out', svgFile]);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.stdout).to.equal(`NOT CONFORMANT: badge written to ${svgFile}\n`);
    const svg = readFileSync(svgFile, 'utf8');
    expect(svg).to.equal(reportBadge(faulty));
    expect(svg).to.include('>NOT CONFORMANT</text>').and.include('fill="#e05d44"').and.include(`rdx ${faulty.harness.version} · spec ${faulty.spec.hash.slice(0, 8)}`);
    const fromBundle = rdx(['badge', join(dir, 'plain', 'bundle.tar.gz'), '--stdout']);
    expect(fromBundle.code, fromBundle.stderr).to.equal(0);
    expect(fromBundle.stdout).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20" role="img"/);
    expect(fromBundle.stdout).to.not.include('NOT CONFORMANT').and.not.include(plain.run.target.baseUrl);
    expect(rdx(['badge', join(dir, 'tampered.tar.gz')]).code).to.equal(2);
  });
});
