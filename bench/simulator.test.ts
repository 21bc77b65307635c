// The bench's arithmetic, without a load: how rounds become a ratio, and how a ratio is shown against its goal.
import { expect } from 'chai';
import type { LoadResult } from './run.js';
import { compareRounds, goalCells, pct } from './simulator.js';

const run = (reqPerSec: number, p99: number): LoadResult => ({ reqPerSec, p50: p99 / 2, p99, cpuPerRequest: 10, errors: 0, non2xx: 0 });

describe('bench: ratios and goals', () => {
  it('shows a ratio that two decimals would round onto its goal with three, so 0.497 is not shown as a met 0.50', () => {
    expect(goalCells(0.497, 0.5, 'at least')).to.deep.equal(['0.497×', '≥ 0.5×', 'MISSED']);
    expect(goalCells(0.503, 0.5, 'at least')).to.deep.equal(['0.503×', '≥ 0.5×', 'met']);
    expect(goalCells(0.5, 0.5, 'at least')).to.deep.equal(['0.50×', '≥ 0.5×', 'met']);
    expect(goalCells(0.6951, 0.7, 'at least')).to.deep.equal(['0.695×', '≥ 0.7×', 'MISSED']);
    expect(goalCells(0.4649, 0.5, 'at least'), 'two decimals where they cannot be mistaken for the goal').to.deep.equal(['0.46×', '≥ 0.5×', 'MISSED']);
  });

  it('meets an upper bound at or below it only (p99)', () => {
    expect(goalCells(2.004, 2, 'at most')).to.deep.equal(['2.004×', '≤ 2×', 'MISSED']);
    expect(goalCells(1.996, 2, 'at most')).to.deep.equal(['1.996×', '≤ 2×', 'met']);
    expect(goalCells(2, 2, 'at most')).to.deep.equal(['2.00×', '≤ 2×', 'met']);
    expect(pct(1.234)).to.equal('1.23×');
  });

  it('compares rounds by the median of the per-round ratios, not the ratio of the medians', () => {
    // Per round 0.6, 0.5, 0.6 (median 0.6); the medians alone would give 100 / 200 = 0.5.
    const v = compareRounds([run(100, 4), run(200, 10), run(300, 0)], [run(60, 8), run(100, 10), run(180, 3)]);
    expect(v.rounds).to.deep.equal([0.6, 0.5, 0.6]);
    expect(v.ratio).to.equal(0.6);
    expect(v.referenceSpread, 'fastest reference round ÷ slowest').to.equal(3);
    // p99 per round 8/4, 10/10, 3/max(0, 1): a reference p99 of 0 ms counts as 1 ms.
    expect(v.p99Ratio).to.equal(2);
    expect(v.reference.reqPerSec).to.equal(200);
    expect(v.subject.reqPerSec).to.equal(100);
  });
});
