// How much a run leaves on its target: the large batch is opt-in, and what the spec lets a client delete is deleted.
import { expect } from 'chai';
import { embeddedSimulator } from '../cli/compose.js';
import { defaults } from '../config/profile.js';
import { leftOut, runConformance } from './run.js';
import { planCases } from './plan.js';
import { loadSuites } from './suite.js';

describe('what a run leaves on its target', function () {
  this.timeout(60_000);

  it('runs the 1,000-item batch only with --tag large, and leaving it out leaves no MUST case unjudged', () => {
    const all = loadSuites();
    const ids = (tags?: string[]): string[] => planCases(all, tags ? { tags } : {}).cases.map((c) => c.id);
    expect(ids()).to.include('activities.batch-large').and.not.include('activities.batch-thousand');
    expect(ids(['large'])).to.deep.equal(['activities.batch-thousand']);
    expect(ids(['batch'])).to.not.include('activities.batch-thousand');
    expect(leftOut(all, planCases(all, {}).cases, {}).map((n) => n.id)).to.deep.equal([]);
  });

  it('deletes the jobboard job offers its cases created and left, and says in report.json how much is left and why', async () => {
    // A batch with one wrongly typed item: its two valid offers are created, and no step of the case deletes them.
    const { report } = await runConformance({
      profile: defaults(), reporter: 'none', simulator: embeddedSimulator(),
      filters: { grep: '^(jobboard-job-offers\\.batch-mixed|activities\\.batch-all-valid) ' },
    });
    expect(report.cases.map((c) => c.verdict)).to.deep.equal(['pass', 'pass']);
    const created = report.cases.flatMap((c) => c.exchanges).filter((e) => e.request.method === 'POST' && /\/jobboard\/job-offers$/.test(e.request.url));
    expect(created.length, 'the case created jobboard job offers').to.be.greaterThan(0);
    expect(report.residue.map((e) => e.resource)).to.not.include('jobboard-job-offer');
    expect(report.residue.filter((e) => e.resource === 'jobboard-activity').length).to.be.greaterThan(0);
    expect(report.residueSummary?.records).to.equal(report.residue.length);
    expect(report.residueSummary?.why).to.match(/^the spec has no DELETE for jobboard-activity, so \d+ jobboard-activity record\(s\) stay\.$/);
  });
});
