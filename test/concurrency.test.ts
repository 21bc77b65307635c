// The whole suite at the default concurrency, 20 times against the simulator with random latency (each run another
// chaos seed, so cases end in another order each time): a case whose verdict or failing clauses change from one run
// to another is flaky, which a run side by side must never make a case.
import { expect } from 'chai';
import { defaults } from '../src/config/profile.js';
import { runConformance } from '../src/engine/run.js';
import { DEFAULT_CONCURRENCY } from '../src/engine/pool.js';
import { embeddedSimulator } from '../src/cli/compose.js';
import { caseOutcome, outcomeDifferences, type CaseOutcome } from '../src/selfcheck/index.js';

const RUNS = 20;
/** Added latency per request, drawn anew for each (simulator chaos): enough to reorder the cases under way. */
const LATENCY = '0-15';

describe(`concurrency: the whole suite ${RUNS} times side by side with random latency`, function () {
  this.timeout(900_000);

  it(`judges every case the same in every run (--concurrency ${DEFAULT_CONCURRENCY}, latency ${LATENCY} ms)`, async () => {
    let first: CaseOutcome[] | undefined;
    const flaky: string[] = [];
    const verdicts = new Set<string>();
    for (let run = 0; run < RUNS; run++) {
      const { report } = await runConformance({
        profile: { ...defaults(), allowIrreversible: true },
        reporter: 'none',
        simulator: embeddedSimulator({ latency: LATENCY, chaosSeed: run + 1 }),
      });
      expect(report.run.concurrency).to.equal(DEFAULT_CONCURRENCY);
      verdicts.add(report.summary.verdict);
      const outcomes = report.cases.map(caseOutcome);
      if (!first) first = outcomes;
      else flaky.push(...outcomeDifferences({ label: 'in run 1', outcomes: first }, { label: `in run ${run + 1}`, outcomes }));
    }
    expect(flaky, flaky.join('\n')).to.deep.equal([]);
    expect([...verdicts]).to.deep.equal(['CONFORMANT']);
  });
});
