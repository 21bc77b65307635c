import { expect } from 'chai';
import type { RunReport } from '../core/report.js';
import type { CaseResult } from '../core/results.js';
import { summarise } from '../core/verdict.js';
import { flatBadge, reportBadge, textWidth } from './badge.js';

/** A report whose summary the one verdict function made from these cases, as the engine makes it. */
const base = (cases: Partial<CaseResult>[]): RunReport => {
  const results: CaseResult[] = cases.map((c, i) => ({ id: `c${i}`, title: '', level: 'MUST', clauses: [], endpoints: [], tags: [], tier: 'read-only', file: 'f', verdict: 'pass', assertions: [], observations: [], exchanges: [], durationMs: 0, ...c }));
  return {
    format: 'rdx-report/1', harness: { name: 'rdx-conformance', version: '9.8.7' },
    spec: { hash: 'abcdef0123456789', clauses: 1, interpretations: 1 },
    run: { id: 'r1', startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:01:00Z', durationMs: 1, seed: 1, runTag: 't', target: { baseUrl: 'https://secret-staging.example', embedded: false }, options: {} },
    summary: summarise(results),
    cases: results,
    latency: {}, implementationProfile: [], residue: [],
  };
};

describe('the verdict badge', () => {
  it('says each verdict in its colour, with the harness version and the spec hash, and never the target', () => {
    const cases: [RunReport, string, string][] = [
      [base([{}]), 'CONFORMANT', '#4c1'],
      [base([{ verdict: 'skip' }]), 'INCOMPLETE', '#dfb317'],
      [base([{ verdict: 'fail', baseline: { reason: 'ticket 1' } }]), 'KNOWN FAILURES', '#fe7d37'],
      [base([{ verdict: 'fail' }]), 'NOT CONFORMANT', '#e05d44'],
    ];
    expect(cases.map(([r]) => r.summary.verdict)).to.deep.equal(['CONFORMANT', 'INCOMPLETE', 'KNOWN_FAILURES', 'NOT_CONFORMANT']);
    for (const [report, word, colour] of cases) {
      const svg = reportBadge(report);
      expect(svg, word).to.include(`>${word}</text>`).and.include(`fill="${colour}"`).and.include('rdx 9.8.7 · spec abcdef01');
      expect(svg).to.not.include('secret-staging');
    }
  });

  it('draws the verdict the report states, whatever its cases look like: the badge reads, it does not judge', () => {
    // Cases that alone would read CONFORMANT, in a report whose summary says the run was filtered (INCOMPLETE) or
    // ran with --fail-on should and a warning (NOT_CONFORMANT): the summary is the verdict.
    const incomplete = base([{}]);
    incomplete.summary = summarise(incomplete.cases, { notRun: [{ id: 'left-out', unlock: { unlock: 'without filters', how: 'run without filters' } }] });
    expect(reportBadge(incomplete)).to.include('>INCOMPLETE</text>');
    const strict = base([{ level: 'SHOULD', verdict: 'warn' }]);
    expect(reportBadge(strict)).to.include('>CONFORMANT</text>');
    strict.summary = summarise(strict.cases, { failOn: 'should' });
    expect(reportBadge(strict)).to.include('>NOT CONFORMANT</text>');
  });

  it('sizes the badge to its text and escapes it', () => {
    const short = flatBadge('a', 'OK', '#4c1');
    const long = flatBadge('a much longer label', 'OK', '#4c1');
    const width = (svg: string): number => Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(width(long) - width(short)).to.be.closeTo(textWidth('a much longer label') - textWidth('a'), 1);
    expect(flatBadge('<x>&"', 'y', '#000')).to.include('&lt;x&gt;&amp;&quot;').and.not.include('<x>');
  });
});
