import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaults } from '../config/profile.js';
import { UsageError } from '../errors.js';
import { runConformance, type RunReport } from '../engine/run.js';
import { embeddedSimulator } from '../compose.js';
import { summarise } from '../core/verdict.js';
import { readReportFile as readReport } from '../core/report.js';
import { mergeReports, type Report } from './merge.js';

const simulatorRun = async (shard?: { index: number; count: number }): Promise<RunReport> =>
  (await runConformance({ profile: defaults(), simulator: embeddedSimulator(), reporter: 'none', filters: shard ? { shard } : {} })).report;

describe('merging reports', function () {
  this.timeout(60_000);
  let full: RunReport;
  let shards: RunReport[];

  before(async () => {
    full = await simulatorRun();
    shards = [];
    for (let index = 1; index <= 3; index++) shards.push(await simulatorRun({ index, count: 3 }));
  });

  it('gives back the case set of a full run when the shards of that run are merged', () => {
    expect(shards.every((s) => s.cases.length > 0 && s.cases.length < full.cases.length)).to.equal(true);
    const merged = mergeReports(shards.map((report, i) => ({ file: `shard-${i + 1}/report.json`, report })));
    expect(merged.cases.map((c) => c.id).sort()).to.deep.equal(full.cases.map((c) => c.id).sort());
    expect(merged.summary.total).to.equal(full.summary.total);
    expect(merged.summary.byLevel).to.deep.equal(full.summary.byLevel);
    expect(merged.summary.conformant).to.equal(true);
    expect(merged.mergedFrom?.map((m) => m.shard)).to.deep.equal(['1/3', '2/3', '3/3']);
    expect(merged.run.options['filters']).to.not.have.property('shard');
    expect(merged.residue.length).to.equal(shards.reduce((n, s) => n + s.residue.length, 0));
    const observed = (r: Report): number => r.implementationProfile.reduce((n, p) => n + p.observed.length, 0);
    expect(observed(merged)).to.equal(shards.reduce((n, s) => n + observed(s), 0));
  });

  it('computes the summary as the engine does, by the one verdict function', () => {
    expect(summarise(full.cases)).to.deep.equal(full.summary);
    // Two shards of three: the cases of the missing one are unjudged, listed with what unlocks them.
    const partial = mergeReports(shards.slice(0, 2).map((report, i) => ({ file: `shard-${i + 1}/report.json`, report })));
    // A prerequisite may be pulled into two shards: a case the given shards ran is judged.
    const given = new Set(shards.slice(0, 2).flatMap((r) => r.cases.map((c) => c.id)));
    const third = (shards[2] as RunReport).cases.filter((c) => c.level === 'MUST' && !given.has(c.id)).map((c) => c.id).sort();
    expect(third.length).to.be.greaterThan(10);
    expect(partial.summary).to.include({ verdict: 'INCOMPLETE', unjudgedMust: third.length });
    expect(partial.summary.toComplete.flatMap((t) => t.cases).sort()).to.deep.equal(third);
    expect(partial.missingShards).to.deep.equal(['3/3']);
  });

  it('keeps one copy of a case run twice, the worse one, and recounts', () => {
    const [a] = shards as [RunReport];
    const twice = structuredClone(a);
    twice.run.id = `${a.run.id}-again`;
    const victim = twice.cases[0] as RunReport['cases'][number];
    victim.verdict = 'fail';
    victim.assertions.push({ clause: 'ENVELOPE.MESSAGE', level: 'MUST', passed: false, message: 'message is missing', check: 'message-string' });
    const merged = mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: twice }]);
    expect(merged.cases.length).to.equal(a.cases.length);
    expect(merged.cases.find((c) => c.id === victim.id)?.verdict).to.equal('fail');
    expect(merged.summary.mustFailures).to.equal(1);
    expect(merged.summary.conformant).to.equal(false);
  });

  it('refuses reports of another spec, another harness version or another target, naming both files', () => {
    const [a, b] = shards as [RunReport, RunReport];
    const otherSpec = { ...b, spec: { ...b.spec, hash: 'f'.repeat(64) } };
    expect(() => mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: otherSpec }]))
      .to.throw(UsageError, /cannot merge: b\.json was judged against spec ffffffffffff, a\.json against spec/);
    const otherHarness = { ...b, harness: { ...b.harness, version: '9.9.9' } };
    expect(() => mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: otherHarness }]))
      .to.throw(UsageError, /cannot merge: b\.json comes from harness 9\.9\.9/);
    const remote = (r: RunReport, baseUrl: string): RunReport => ({ ...r, run: { ...r.run, target: { baseUrl, embedded: false } } });
    expect(() => mergeReports([{ file: 'a.json', report: remote(a, 'https://one.example') }, { file: 'b.json', report: remote(b, 'https://two.example') }]))
      .to.throw(UsageError, /b\.json judged https:\/\/two\.example/);
    expect(() => mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: a }])).to.throw(UsageError, /b\.json and a\.json are the same run/);
    const strict = { ...b, summary: { ...b.summary, failOn: 'should' as const } };
    expect(() => mergeReports([{ file: 'a.json', report: a }, { file: 'b.json', report: strict }])).to.throw(UsageError, /b\.json was run with --fail-on should, a\.json with --fail-on must/);
  });
});

describe('readReportFile (src/core/report.ts) as rdx report reads shards', () => {
  const write = (text: string): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'rdx-read-')), 'report.json');
    writeFileSync(file, text);
    return file;
  };

  it('names the file and the field that is wrong, without a stack trace', () => {
    expect(() => readReport('/nonexistent/report.json')).to.throw(UsageError, /^\/nonexistent\/report\.json: cannot read the report \(ENOENT\)$/);
    expect(() => readReport(write('{oops'))).to.throw(UsageError, /report\.json: not JSON/);
    expect(() => readReport(write('{"format":"rdx-report/2"}'))).to.throw(UsageError, /report\.json: format: expected "rdx-report\/1", got "rdx-report\/2"/);
    const base = {
      format: 'rdx-report/1', harness: { name: 'rdx-conformance', version: '0.1.0' }, spec: { hash: 'a' }, summary: summarise([]),
      run: { id: 'r', startedAt: 's', finishedAt: 'f', runTag: 't', seed: 1, target: { baseUrl: 'http://127.0.0.1:1' }, options: {} },
      implementationProfile: [], residue: [], latency: {},
    };
    expect(() => readReport(write(JSON.stringify({ ...base, cases: [{ id: 'x', verdict: 'great' }] }))))
      .to.throw(UsageError, /cases\[0\]\.verdict: expected one of pass, fail, warn, observed, skip, error, got "great"/);
    expect(readReport(write(JSON.stringify({ ...base, cases: [] }))).cases).to.deep.equal([]);
    // No reader derives a verdict a report lacks: a summary without one is refused, not filled in.
    const { verdict: _, ...noVerdict } = summarise([]);
    expect(() => readReport(write(JSON.stringify({ ...base, summary: noVerdict, cases: [] })))).to.throw(UsageError, /report\.json: summary\.verdict: expected one of CONFORMANT, INCOMPLETE, KNOWN_FAILURES, NOT_CONFORMANT, got nothing/);
    const { toComplete: __, ...noList } = summarise([]);
    expect(() => readReport(write(JSON.stringify({ ...base, summary: noList, cases: [] })))).to.throw(UsageError, /summary\.toComplete: expected a list/);
  });
});
