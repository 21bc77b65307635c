// The rule-breaking target of test/support/rule-breaker.ts, which the reporter tests run their reports against.
import { expect } from 'chai';
import { ruleBreakingReport } from '../../test/support/rule-breaker.js';

describe('the rule-breaking target used by the reporter tests', function () {
  this.timeout(30_000);

  it('gives a report with MUST failures on authenticated requests and passes elsewhere', async () => {
    const report = await ruleBreakingReport('^token\\.issued |^job-offers\\.unknown-id\\.get ');
    expect(report.summary.conformant).to.equal(false);
    expect(report.cases.find((c) => c.id === 'token.issued')?.verdict).to.equal('pass');
    const broken = report.cases.find((c) => c.id === 'job-offers.unknown-id.get');
    expect(broken?.verdict).to.equal('fail');
    expect(broken?.assertions.filter((a) => !a.passed).map((a) => a.clause)).to.include('ENVELOPE.MESSAGE');
  });
});
