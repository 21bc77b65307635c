// Reading a report back (issue #29 §4): a crafted report.json is refused with the file and the JSON path of what
// is wrong, before any reader uses it; bounded in size, depth and parsed weight; no prototype is polluted.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { jsonScan } from './json-scan.js';
import { minimalCase, minimalReport } from '../../test/support/reports.js';
import { MAX_REPORT_PARSED_BYTES, MAX_SHARDS, parseReport, readReportFile, reportProblem } from './report.js';


const write = (text: string): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'rdx-core-report-')), 'report.json');
  writeFileSync(file, text);
  return file;
};

describe('reading a report from disk (src/core/report.ts)', () => {
  it('accepts a report as the engine writes it, and gives back the same value', () => {
    const report = minimalReport([minimalCase()]);
    expect(reportProblem(report)).to.equal(undefined);
    expect(readReportFile(write(JSON.stringify(report)))).to.deep.equal(report);
  });

  it('refuses a shard count no run can have, naming the file and the path, before planning 3e8 shards', () => {
    const report = minimalReport() as unknown as { run: { options: Record<string, unknown> }; mergedFrom?: unknown[] };
    report.run.options = { filters: { shard: { index: 1, count: 300_000_000 } } };
    const file = write(JSON.stringify(report));
    expect(() => readReportFile(file)).to.throw(UsageError, `${file}: run.options.filters.shard.count: expected a whole number from 1 to ${MAX_SHARDS}, got 300000000`);
    const merged = minimalReport() as unknown as Record<string, unknown>;
    merged['mergedFrom'] = [{ file: 'x', runId: 'r', runTag: 't', seed: 1, startedAt: 's', cases: 0, shard: '1/300000000' }];
    expect(() => parseReport(JSON.stringify(merged), 'shard.json')).to.throw(UsageError, /^shard\.json: mergedFrom\[0\]\.shard: expected "i\/n" with 1 <= i <= n <= 1000, got "1\/300000000"$/);
  });

  it('refuses a case whose level is "__proto__" (or anything but MUST, SHOULD, OBSERVE), by its path', () => {
    const report = minimalReport([minimalCase()]) as unknown as { cases: Record<string, unknown>[] };
    (report.cases[0] as Record<string, unknown>)['level'] = '__proto__';
    expect(() => parseReport(JSON.stringify(report), 'r.json')).to.throw(UsageError, /^r\.json: cases\[0\]\.level: expected one of MUST, SHOULD, OBSERVE, got "__proto__"$/);
    expect(({} as Record<string, unknown>)['fail']).to.equal(undefined);
  });

  it('names every wrong field by its JSON path, up to five, and never walks a value kept as the target sent it', () => {
    const report = minimalReport([minimalCase()]) as unknown as Record<string, unknown>
      & { cases: Record<string, unknown>[]; summary: Record<string, unknown> };
    report['baseline'] = { file: 'b.yaml', entries: '<meta http-equiv="refresh" content="0;url=https://example.org">', unexpectedPasses: [], expired: [] };
    (report.summary['byLevel'] as Record<string, unknown>)['weird key'] = { pass: 'one' };
    (report.cases[0] as Record<string, unknown>)['observations'] = [{ interpretation: 'I', caseId: 'a.case', value: { anything: [1, { deep: true }] } }];
    const problem = reportProblem(JSON.parse(JSON.stringify(report)));
    expect(problem).to.equal('summary.byLevel["weird key"].pass: expected a whole number from 0, got "one"; baseline.entries: expected a whole number from 0, got "<meta http-equiv=\\"refresh\\" content=\\"0;url=https://examp…');
  });

  it('refuses, unparsed, a report nested deeper than any report is or one that would take too much memory once parsed', () => {
    expect(() => parseReport(`{"format":"rdx-report/1","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'deep.json')).to.throw(UsageError, /^deep\.json: nests deeper than 1100 levels/);
    // 200,000 empty objects per MiB of text: parsed, about 25 times the text.
    const heavy = `{"format":"rdx-report/1","cases":[${'{},'.repeat(3_500_000)}{}]}`;
    expect(jsonScan(heavy).weight).to.be.above(MAX_REPORT_PARSED_BYTES);
    expect(() => parseReport(heavy, 'heavy.json')).to.throw(UsageError, /^heavy\.json: would take about \d+ MiB once parsed, more than a report can \(256 MiB\); not read$/);
  });

  it('says what is wrong with a file that is not a report, and never throws anything but a usage error', () => {
    expect(() => readReportFile('/nonexistent/report.json')).to.throw(UsageError, /^\/nonexistent\/report\.json: cannot read the report \(ENOENT\)$/);
    expect(() => parseReport('{oops', 'f.json')).to.throw(UsageError, /^f\.json: not JSON/);
    expect(() => parseReport('[]', 'f.json')).to.throw(UsageError, /^f\.json: not a report \(expected a JSON object\)$/);
    const base = minimalReport([minimalCase()]);
    for (const bad of [{ cases: null }, { cases: [null] }, { cases: [{ ...minimalCase(), assertions: 'x' }] }, { summary: { ...base.summary, toComplete: [{ unlock: 'u', how: 'h', cases: 3 }] } },
      { run: { ...base.run, options: { filters: { grep: '(' } } } }, { latency: { 1: { count: 1 } } }]) {
      const doc = { ...minimalReport([minimalCase()]), ...bad };
      expect(() => parseReport(JSON.stringify(doc), 'f.json'), JSON.stringify(bad)).to.throw(UsageError, /^f\.json: /);
    }
  });
});
