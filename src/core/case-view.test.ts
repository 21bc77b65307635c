// How a case is shown: one order of verdicts, one rule for a baselined case and for a failure list.
import { expect } from 'chai';
import { CASE_VERDICTS, countsInOrder, isProblem, shownVerdict, verdictRank, worstFirst, worstVerdict } from './case-view.js';

describe('how a case is shown (src/core/case-view.ts)', () => {
  it('ranks the verdicts worst first: a fail above an error, a known failure between a warning and a skip', () => {
    expect(CASE_VERDICTS).to.deep.equal(['fail', 'error', 'warn', 'known-failure', 'skip', 'pass', 'observed']);
    expect(verdictRank('fail')).to.be.greaterThan(verdictRank('error'));
    expect(verdictRank('observed')).to.be.greaterThan(verdictRank('nonsense'));
    expect(worstVerdict(['pass', 'error', 'fail', 'warn'])).to.equal('fail');
    expect(worstVerdict(['nonsense', 'observed'])).to.equal('observed');
  });

  it('shows a case the baseline excuses as known-failure, and keeps it out of the failure list', () => {
    const excused = { verdict: 'fail', baseline: { reason: 'ticket 1' } };
    expect(shownVerdict(excused)).to.equal('known-failure');
    expect(isProblem(excused)).to.equal(false);
    expect(['fail', 'error', 'warn', 'skip', 'pass', 'observed'].filter((verdict) => isProblem({ verdict }))).to.deep.equal(['fail', 'error', 'warn']);
  });

  it('sorts cases and counts worst first, keeping the order met within a verdict and unknown words last', () => {
    const cases = [{ id: 'a', verdict: 'warn' }, { id: 'b', verdict: 'error' }, { id: 'c', verdict: 'fail' }, { id: 'd', verdict: 'error' }];
    expect([...cases].sort(worstFirst).map((c) => c.id)).to.deep.equal(['c', 'b', 'd', 'a']);
    expect(countsInOrder({ pass: 3, odd: 1, fail: 1, observed: 2, 'known-failure': 1 }))
      .to.deep.equal([['fail', 1], ['known-failure', 1], ['pass', 3], ['observed', 2], ['odd', 1]]);
  });
});
