// The whole suite side by side against the simulator with random latency, a few times: a case whose verdict or
// failing clauses change from one run to another is flaky, which a run side by side must never make a case.
//
// What differs between runs is which cases overlap in time (the latency of each request is drawn anew, from another
// chaos seed, so cases end in another order). A case made flaky by a neighbour shows up when one run has that
// neighbour beside it and another does not, so the power of the test is the number of overlapping pairs of cases
// its runs cover. Measured (scripts: the pairs whose intervals overlap, from each case's exchanges): 20 runs at the
// default concurrency covered about 2,600 pairs, 1,680 in each run and a few dozen new per run by the end; one run
// at --concurrency 16 covers 3,400 and one at 64 covers 8,700. So the runs below, two at each of 8, 16 and 64,
// cover more pairs than the 20 at 8 did (the test prints how many), in a third of the time. The self-check compares
// the clean simulator at --concurrency 1 against the default: that is the run with no neighbour at all.
import { expect } from 'chai';
import { defaults } from '../src/config/profile.js';
import { runConformance } from '../src/engine/run.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../src/engine/pool.js';
import { embeddedSimulator } from '../src/compose.js';
import { SELFCHECK_EXPLORE_BUDGET, caseOutcome, outcomeDifferences, type CaseOutcome } from '../src/selfcheck/index.js';
import type { CaseResult } from '../src/core/results.js';

const CONCURRENCIES = [DEFAULT_CONCURRENCY, DEFAULT_CONCURRENCY, 16, 16, MAX_CONCURRENCY, MAX_CONCURRENCY];
/** Added latency per request, drawn anew for each (simulator chaos): enough to reorder the cases under way. */
const LATENCY = '0-15';

/** The pairs of cases whose exchanges overlapped in time ("a|b", a before b), from each case's first to last. */
export function overlappingPairs(cases: CaseResult[]): Set<string> {
  const spans = cases.filter((c) => c.exchanges.length > 0).map((c) => ({
    id: c.id,
    from: Math.min(...c.exchanges.map((e) => Date.parse(e.startedAt))),
    to: Math.max(...c.exchanges.map((e) => Date.parse(e.startedAt) + e.elapsedMs)),
  }));
  const pairs = new Set<string>();
  for (const [i, a] of spans.entries()) {
    for (const b of spans.slice(i + 1)) if (a.from < b.to && b.from < a.to) pairs.add(a.id < b.id ? `${a.id}|${b.id}` : `${b.id}|${a.id}`);
  }
  return pairs;
}

describe(`concurrency: the whole suite ${CONCURRENCIES.length} times side by side with random latency`, function () {
  this.timeout(900_000);

  it('counts two cases as overlapping only when their exchanges do', () => {
    const at = (id: string, from: number, ms: number): CaseResult =>
      ({ id, exchanges: [{ startedAt: new Date(from).toISOString(), elapsedMs: ms }] } as unknown as CaseResult);
    expect([...overlappingPairs([at('b', 0, 10), at('a', 5, 10), at('c', 20, 5)])]).to.deep.equal(['a|b']);
  });

  it(`judges every case the same in every run (--concurrency ${CONCURRENCIES.join(', ')}; latency ${LATENCY} ms)`, async () => {
    let first: CaseOutcome[] | undefined;
    const flaky: string[] = [];
    const verdicts = new Set<string>();
    const covered = new Set<string>();
    for (const [run, concurrency] of CONCURRENCIES.entries()) {
      const { report } = await runConformance({
        // Explore requests go one after another, each meeting the latency: at the default budget they would be most of
        // the run's time. The self-check's budget still runs each explore case beside the others.
        profile: { ...defaults(), allowIrreversible: true, explore: { ...SELFCHECK_EXPLORE_BUDGET } },
        reporter: 'none',
        concurrency,
        simulator: embeddedSimulator({ latency: LATENCY, chaosSeed: run + 1 }),
      });
      expect(report.run.concurrency).to.equal(concurrency);
      verdicts.add(report.summary.verdict);
      for (const pair of overlappingPairs(report.cases)) covered.add(pair);
      const outcomes = report.cases.map(caseOutcome);
      if (!first) first = outcomes;
      else flaky.push(...outcomeDifferences({ label: 'in run 1', outcomes: first }, { label: `in run ${run + 1} (--concurrency ${concurrency})`, outcomes }));
    }
    process.stdout.write(`      ${covered.size} pairs of cases overlapped in one run or another\n`);
    expect(flaky, flaky.join('\n')).to.deep.equal([]);
    expect([...verdicts]).to.deep.equal(['CONFORMANT']);
  });
});
