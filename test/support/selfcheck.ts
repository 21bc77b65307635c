// The self-check's planned runs as mocha tests, one a run, for the two files that share the plan between them:
// src/selfcheck/selfcheck.test.ts (the runs that need a core) and src/selfcheck/rate-limited.test.ts (the runs that
// mostly wait, mostlyWaits). Two files, so that mocha runs them side by side: the rate-limited runs wait out their
// 429s for a minute or more, which held the self-check's file open after its other runs were done.
import { expect } from 'chai';
import { clause } from '../../src/spec/index.js';
import { createRunPool, selfCheckWorkers, type RunPool } from '../../src/selfcheck/pool.js';
import { KNOWN_MISSES, formatTable, mostlyWaits, problemsOf, runPersonaBoth, score, type PersonaRun, type PlannedRun } from '../../src/selfcheck/index.js';

/** What the test of a planned run says it shows. */
function plannedRunTitle({ persona, declare, both }: PlannedRun): string {
  const title = !persona
    ? 'finds the clean simulator conformant, without a single SHOULD warning'
    : persona.kind === 'variant'
      ? `accepts variant ${persona.name}${declare ? ' (declared in the profile)' : ''} without a MUST failure, an unexplained SHOULD warning or an error`
      : persona.name in KNOWN_MISSES
        ? `still misses fault ${persona.name} (a known miss, awaiting a suite change)`
        : `catches fault ${persona.name}: ${(persona.breaks ?? []).map((id) => `${clause(id).level} ${id}`).join(', ')}`;
  return `${title}${both !== undefined ? ', the same at --concurrency 1' : ''}`;
}

/**
 * Declares, inside the calling describe, one test per planned run and the hook that ends the pool; returns how a
 * further test of the same describe gets a run (shared with the per-run tests) and the runs settled so far.
 */
export function plannedRunTests(plan: PlannedRun[]): { runOf: (index: number) => Promise<PersonaRun>; settled: PersonaRun[] } {
  const workers = selfCheckWorkers();
  // Made by the first run asked for: a --grep that leaves these tests out starts no worker.
  let pool: RunPool<PersonaRun> | undefined;
  // Each planned run once, whichever test asks first. Asking for one starts the next runs too, up to one per worker
  // (a run that mostly waits has a process of its own, and is started without taking a worker's place), so that
  // every worker has a run while the tests take theirs in order.
  const started = new Map<number, Promise<PersonaRun>>();
  const start = (index: number): Promise<PersonaRun> => {
    const planned = plan[index] as PlannedRun;
    let run = started.get(index);
    pool ??= createRunPool<PersonaRun>(workers, runPersonaBoth, { alone: mostlyWaits });
    if (!run) started.set(index, (run = pool.run(planned.persona, planned.declare, planned.both !== undefined)));
    return run;
  };
  const runOf = (index: number): Promise<PersonaRun> => {
    const run = start(index);
    for (let next = index + 1, ahead = 0; next < plan.length && ahead < workers - 1; next++) {
      if (!mostlyWaits(plan[next]?.persona)) ahead++;
      void start(next);
    }
    return run;
  };
  const settled: PersonaRun[] = [];

  after(async () => {
    // Runs started ahead of a test that --grep left out still end before the workers are let go.
    await Promise.allSettled(started.values());
    await pool?.close();
    if (settled.length > 0) process.stdout.write(`\n${formatTable({ runs: settled, faults: score(settled) })}\n`);
  });

  plan.forEach((planned, index) => {
    it(plannedRunTitle(planned), async () => {
      const run = await runOf(index);
      settled.push(run);
      expect(run.serialDifferences !== undefined, 'run at both concurrencies exactly when schedule.ts says it may matter').to.equal(planned.both !== undefined);
      const problems = problemsOf(run);
      expect(problems, `\n${problems.join('\n')}\n`).to.deep.equal([]);
    });
  });
  return { runOf, settled };
}
