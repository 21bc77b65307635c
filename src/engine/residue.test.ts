// How much a run leaves on its target: the large batch is opt-in, and what the spec lets a client delete is deleted.
import { expect } from 'chai';
import { embeddedSimulator } from '../compose.js';
import { defaults } from '../config/profile.js';
import { leftOut, runConformance } from './run.js';
import { planCases } from './plan.js';
import { loadSuites } from './suite.js';
import { existsSync, rmSync } from 'node:fs';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { personaByName, type Persona } from '../../simulator/personas/index.js';
import { ID_LOGS } from '../../simulator/personas/variants/message-only-with-id-logs.js';
import type { RunReport } from './run.js';
import { internalsOf } from '../../test/support/simulator.js';

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

describe('the residue a report states is what the target holds', function () {
  this.timeout(120_000);
  after(() => {
    for (const file of Object.values(ID_LOGS)) if (existsSync(file)) rmSync(file);
  });

  /**
   * The target's own count of each resource's records. Attributes are left out: they live inside their job offer, and
   * the ledger counts those a run adds through endpoint 7, not those a created job offer carries.
   */
  const counts = (sim: Simulator): Record<string, number> => ({
    'job-offer': internalsOf(sim).store.jobOffers.size,
    'application-step': internalsOf(sim).store.applicationSteps.size,
    'jobboard-activity': internalsOf(sim).store.jobboardActivities.size,
    'jobboard-job-offer': internalsOf(sim).store.jobboardJobOffers.size,
  });

  /** A complete run against a simulator with these personas, with the profile a vendor of it would give. */
  const runAgainst = async (personas: Persona[]): Promise<{ report: RunReport; grown: Record<string, number> }> => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, personas });
    try {
      const before = counts(sim);
      const { report } = await runConformance({
        reporter: 'none',
        profile: {
          ...defaults(), allowIrreversible: true, baseUrl: sim.baseUrl, clientId: sim.options.clientId, clientSecret: sim.options.clientSecret,
          fixtures: { expiredToken: sim.expiredToken(), atsJobOfferIds: sim.atsJobOfferFixtureIds() },
          declared: personas[0]?.declared ?? {}, ...personas[0]?.profile,
        },
      });
      const after = counts(sim);
      return { report, grown: Object.fromEntries(Object.entries(after).map(([r, n]) => [r, n - (before[r] ?? 0)])) };
    } finally {
      await sim.close();
    }
  };

  const stated = (report: RunReport, resources: string[]): Record<string, number> =>
    Object.fromEntries(resources.map((r) => [r, report.residueSummary?.byResource[r] ?? 0]));

  it('against the plain simulator: per resource, as many records as the target gained, and no jobboard job offer', async () => {
    const { report, grown } = await runAgainst([]);
    expect(report.summary.verdict).to.equal('CONFORMANT');
    expect(stated(report, Object.keys(grown))).to.deep.equal(grown);
    expect(grown['jobboard-job-offer']).to.equal(0);
  });

  it('against message-only-with-id-logs (ids only in the id logs): the same, the sweep deleting by the logged ids', async () => {
    const variant = personaByName('message-only-with-id-logs') as Persona;
    const { report, grown } = await runAgainst([variant]);
    expect(report.summary.verdict).to.equal('CONFORMANT');
    expect(stated(report, Object.keys(grown))).to.deep.equal(grown);
    expect(grown['jobboard-job-offer']).to.equal(0);
    expect(report.residueSummary?.records).to.equal(report.residue.length);
  });

  // Cases that stop on a create's answer (a setup step that breaks a MUST, an id the step cannot capture) have left
  // its records on the target all the same: the ledger takes them from the answer, before anything is judged.
  for (const fault of ['application-step-without-id', 'created-without-ids']) {
    it(`against ${fault} (cases stop on the create's answer): every record the target gained is stated`, async () => {
      const { report, grown } = await runAgainst([personaByName(fault) as Persona]);
      expect(report.summary.verdict).to.equal('NOT_CONFORMANT');
      expect(stated(report, Object.keys(grown))).to.deep.equal(grown);
    });
  }
});
