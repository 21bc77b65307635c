import { expect } from 'chai';
import type { RunReport } from '../engine/run.js';
import type { CaseResult } from '../core/results.js';
import { flatBadge, reportBadge, textWidth } from './badge.js';
import { runVerdict } from './verdict.js';

const base = (cases: Partial<CaseResult>[], summary: Partial<RunReport['summary']> = {}): RunReport => ({
  format: 'rdx-report/1', harness: { name: 'rdx-conformance', version: '9.8.7' },
  spec: { hash: 'abcdef0123456789', clauses: 1, interpretations: 1 },
  run: { id: 'r1', startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:01:00Z', durationMs: 1, seed: 1, runTag: 't', target: { baseUrl: 'https://secret-staging.example', embedded: false }, options: {} },
  // A summary from before the engine gave summary.verdict: the badge derives it.
  summary: { total: cases.length, byVerdict: {}, byLevel: {}, mustFailures: 0, errors: 0, conformant: true, ...summary } as RunReport['summary'],
  cases: cases.map((c, i) => ({ id: `c${i}`, title: '', level: 'MUST', clauses: [], endpoints: [], tags: [], tier: 'read-only', file: 'f', verdict: 'pass', assertions: [], observations: [], exchanges: [], durationMs: 0, ...c })),
  latency: {}, implementationProfile: [], residue: [],
});

describe('the verdict badge', () => {
  it('says each verdict in its colour, with the harness version and the spec hash, and never the target', () => {
    const cases: [RunReport, string, string][] = [
      [base([{}]), 'CONFORMANT', '#4c1'],
      [base([{ verdict: 'skip' }]), 'INCOMPLETE', '#dfb317'],
      [base([{ verdict: 'fail', baseline: { reason: 'ticket 1' } }]), 'KNOWN FAILURES', '#fe7d37'],
      [base([{ verdict: 'fail' }], { mustFailures: 1, conformant: false }), 'NOT CONFORMANT', '#e05d44'],
    ];
    for (const [report, word, colour] of cases) {
      const svg = reportBadge(report);
      expect(svg, word).to.include(`>${word}</text>`).and.include(`fill="${colour}"`).and.include('rdx 9.8.7 · spec abcdef01');
      expect(svg).to.not.include('secret-staging');
    }
  });

  it('takes the verdict from summary.verdict when the engine gave it', () => {
    const report = base([{}]);
    (report.summary as unknown as Record<string, unknown>)['verdict'] = 'INCOMPLETE';
    expect(runVerdict(report)).to.equal('INCOMPLETE');
  });

  it('sizes the badge to its text and escapes it', () => {
    const short = flatBadge('a', 'OK', '#4c1');
    const long = flatBadge('a much longer label', 'OK', '#4c1');
    const width = (svg: string): number => Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(width(long) - width(short)).to.be.closeTo(textWidth('a much longer label') - textWidth('a'), 1);
    expect(flatBadge('<x>&"', 'y', '#000')).to.include('&lt;x&gt;&amp;&quot;').and.not.include('<x>');
  });
});
