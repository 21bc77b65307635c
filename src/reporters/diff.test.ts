// rdx diff on two real runs: the bundled simulator, then the same simulator with a fault persona (missing-message:
// no `message` in the envelope), through the engine and through the CLI.
import { embeddedSimulator } from '../compose.js';
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaults } from '../config/profile.js';
import { runConformance, type RunReport } from '../engine/run.js';
import { packageRoot } from '../spec/index.js';
import { personaByName } from '../../simulator/personas/index.js';
import { summarise } from '../core/verdict.js';
import { sha256Hex } from './bundle.js';
import { diffMarkdown, diffReports, diffText, stableValue, type ReportDiff } from './diff.js';
import { tarUnpack } from './tar.js';
import { gunzipSync } from 'node:zlib';
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
    // Every case the fault broke is a MUST failure here, and the verdict got worse (INCOMPLETE, for the filter, to
    // NOT_CONFORMANT): one regression each, and one for the verdict.
    expect(faulty.cases.filter((c) => c.verdict === 'fail').every((c) => c.assertions.some((a) => !a.passed && a.level === 'MUST'))).to.equal(true);
    expect(forward.newlyUnjudged).to.deep.equal([]);
    expect(forward.verdictWorse).to.equal(true);
    expect(forward.regressions).to.equal(broken.length + 1);
    expect(diffText(forward, (t) => t)).to.include(`Regressions: ${broken.length + 1} (${broken.length} MUST case(s) newly failing, the verdict got worse (INCOMPLETE → NOT CONFORMANT))`);
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
    const lists = [same.newlyFailing, same.newlyPassing, same.newlyUnjudged, same.otherChanges, same.clauses, same.observations, same.added, same.removed];
    for (const list of lists) {
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

  it('counts a MUST case judged in the old run and absent from the new one as a regression, and a worse verdict too', () => {
    // The old run judged everything it ran; the new one lost a passing MUST case (a filter, a missing shard).
    const complete = structuredClone(plain);
    complete.summary = summarise(complete.cases);
    expect(complete.summary.verdict).to.equal('CONFORMANT');
    const gone = complete.cases.find((c) => c.level === 'MUST' && c.verdict === 'pass') as RunReport['cases'][number];
    const smaller = structuredClone(complete);
    smaller.cases = smaller.cases.filter((c) => c.id !== gone.id);
    smaller.summary = summarise(smaller.cases, { notRun: [{ id: gone.id, unlock: { unlock: 'without filters', how: 'run without filters' } }] });
    const d = diffReports('old.json', complete, 'new.json', smaller);
    expect(d.removed).to.deep.equal([gone.id]);
    expect(d.newlyUnjudged).to.have.length(1);
    expect(d.newlyUnjudged[0]).to.include({ id: gone.id, level: 'MUST', old: 'pass', new: null });
    expect(d.verdictWorse).to.equal(true);
    expect(d.regressions).to.equal(2);
    expect(diffText(d, (t) => t)).to.include('Newly unjudged (1):').and.include('PASS          → absent').and.include('Regressions: 2 (1 MUST case(s) judged before and now not judged or absent, the verdict got worse (CONFORMANT → INCOMPLETE))');
    // A SHOULD case gone, the verdict unchanged: nothing the gate counts.
    const should = structuredClone(complete);
    const shouldCase = should.cases.find((c) => c.level === 'SHOULD' && c.verdict !== 'skip') as RunReport['cases'][number];
    should.cases = should.cases.filter((c) => c.id !== shouldCase.id);
    should.summary = summarise(should.cases);
    expect(diffReports('old.json', complete, 'new.json', should).regressions).to.equal(0);
    // Under --fail-on should it is counted, as a MUST case gone is: the rule gates on SHOULD cases, dropped ones too.
    const strict = diffReports('old.json', complete, 'new.json', should, { failOn: 'should' });
    expect(strict.regressions).to.equal(1);
    expect(diffText(strict, (t) => t)).to.include('Regressions: 1 (1 SHOULD case(s) judged before and now not judged or absent (--fail-on should))');

    // From the command line: the gate fails on the case that disappeared.
    writeFileSync(join(dir, 'complete.json'), JSON.stringify(complete));
    writeFileSync(join(dir, 'smaller.json'), JSON.stringify(smaller));
    const gate = rdx(['diff', join(dir, 'complete.json'), join(dir, 'smaller.json'), '--fail-on-regression']);
    expect(gate.code, gate.stdout + gate.stderr).to.equal(1);
    expect(gate.stdout).to.include(`[MUST] ${gone.id}`).and.include('Regressions: 2');
  });

  it('counts a newly warning SHOULD case under --fail-on should only', () => {
    const complete = structuredClone(plain);
    complete.summary = summarise(complete.cases);
    const warned = structuredClone(complete);
    const c = warned.cases.find((x) => x.level === 'SHOULD' && x.verdict === 'pass') as RunReport['cases'][number];
    expect(c, 'a SHOULD case that passed').to.be.an('object');
    c.verdict = 'warn';
    c.assertions.push({ clause: 'AUTH.WWW_AUTHENTICATE', level: 'SHOULD', passed: false, message: 'no challenge', check: 'www-authenticate' });
    warned.summary = summarise(warned.cases);
    expect(warned.summary.verdict).to.equal('CONFORMANT');
    const lenient = diffReports('a', complete, 'b', warned);
    expect(lenient.newlyFailing.map((x) => x.id)).to.deep.equal([c.id]);
    expect(lenient.regressions).to.equal(0);
    const strict = diffReports('a', complete, 'b', warned, { failOn: 'should' });
    expect(strict.regressions).to.equal(1);
    // A run made with --fail-on should is compared under its own rule: its verdict says NOT_CONFORMANT as well.
    const strictRun = structuredClone(warned);
    strictRun.summary = summarise(strictRun.cases, { failOn: 'should' });
    expect(diffReports('a', complete, 'b', strictRun).regressions).to.equal(2);
  });

  it('leaves out of the observations what the run generated: its run tag, timestamps, ids and references', () => {
    const one = stableValue({ id: 17, reference: 'rdxa1b2c3-4-JO', name: 'rdxa1b2c3-x', at: '2026-11-25T18:00:00.123Z', status: 400 }, 'rdxa1b2c3');
    const two = stableValue({ id: 99, reference: 'rdxffee00-9-JO', name: 'rdxffee00-x', at: '2026-11-26T09:30:00Z', status: 400 }, 'rdxffee00');
    expect(one).to.deep.equal(two);
    expect(stableValue({ status: 400 }, 't')).to.not.deep.equal(stableValue({ status: 422 }, 't'));
    const a = structuredClone(plain);
    const b = structuredClone(plain);
    b.run.runTag = 'rdx999999';
    const pa = a.implementationProfile[0] as RunReport['implementationProfile'][number];
    const pb = b.implementationProfile[0] as RunReport['implementationProfile'][number];
    pa.observed = [{ caseId: 'x', value: { data: { reference: `${a.run.runTag}-1-JO`, id: 3 }, message: `${a.run.runTag}-1-JO is invalid` } }];
    pb.observed = [{ caseId: 'x', value: { data: { reference: `${b.run.runTag}-7-JO`, id: 8 }, message: `${b.run.runTag}-7-JO is invalid` } }];
    expect(diffReports('a', a, 'b', b).observations).to.deep.equal([]);
    pb.observed = [{ caseId: 'x', value: { data: null, message: 'invalid' } }];
    expect(diffReports('a', a, 'b', b).observations).to.have.length(1);
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
    // A job summary an earlier step wrote keeps its text: --markdown-append adds the diff below it, --markdown replaces it.
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '## The run\nNOT CONFORMANT\n');
    expect(rdx(['diff', old, now, '--markdown-append', summary]).code).to.equal(0);
    const appended = readFileSync(summary, 'utf8');
    expect(appended).to.match(/^## The run\nNOT CONFORMANT\n\n### RDX conformance diff: /);
    expect(appended.slice(appended.indexOf('### RDX'))).to.equal(readFileSync(join(dir, 'diff.md'), 'utf8'));
    expect(rdx(['diff', old, now, '--markdown', summary]).code).to.equal(0);
    expect(readFileSync(summary, 'utf8')).to.equal(readFileSync(join(dir, 'diff.md'), 'utf8'));
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

  it('rdx badge writes the verdict badge from a report, and from a bundle says how far it was checked', () => {
    const svgFile = join(dir, 'badge.svg');
    const ok = rdx(['badge', join(dir, 'faulty', 'report.json'), '--out', svgFile]);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.stdout).to.equal(`NOT CONFORMANT: badge written to ${svgFile}\n`);
    const svg = readFileSync(svgFile, 'utf8');
    expect(svg).to.equal(reportBadge(faulty));
    expect(svg).to.include('>NOT CONFORMANT</text>').and.include('fill="#e05d44"').and.include(`rdx ${faulty.harness.version} · spec ${faulty.spec.hash.slice(0, 8)}`);
    const bundle = join(dir, 'plain', 'bundle.tar.gz');
    // Unpinned: integrity only, said so, and exit 5, as rdx verify.
    const loose = rdx(['badge', bundle, '--stdout']);
    expect(loose.code, loose.stderr).to.equal(5);
    expect(loose.stderr).to.include('integrity only: the bundle agrees with itself; pin its manifest hash or check its signature to know it is the one that was published');
    const manifest = tarUnpack(gunzipSync(readFileSync(bundle))).find((e) => e.name === 'manifest.json')?.data as Buffer;
    const fromBundle = rdx(['badge', bundle, '--stdout', '--manifest-sha256', sha256Hex(manifest)]);
    expect(fromBundle.code, fromBundle.stderr).to.equal(0);
    expect(fromBundle.stdout).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20" role="img"/);
    expect(plain.summary.verdict).to.equal('INCOMPLETE');
    expect(fromBundle.stdout).to.include('>INCOMPLETE</text>').and.not.include(plain.run.target.baseUrl);
    const wrongPin = rdx(['badge', bundle, '--stdout', '--manifest-sha256', '0'.repeat(64)]);
    expect(wrongPin.code).to.equal(1);
    expect(wrongPin.stdout).to.equal('');
    expect(rdx(['badge', join(dir, 'tampered.tar.gz')]).code).to.equal(2);
  });
});
