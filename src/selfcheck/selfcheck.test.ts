import { expect } from 'chai';
import { clause } from '../spec/index.js';
import { formatTable, plannedRuns, problemsOf, runPersona, score, type PersonaRun } from './index.js';

describe('self-check: the harness judged against its own simulator', function () {
  // One full run takes about half a second; the fault with 2-second tokens waits for one to expire.
  this.timeout(60_000);
  const runs: PersonaRun[] = [];

  after(() => {
    if (runs.length > 0) process.stdout.write(`\n${formatTable({ runs, faults: score(runs) })}\n`);
  });

  for (const { persona, declare } of plannedRuns()) {
    const title = !persona
      ? 'finds the clean simulator conformant, without a single SHOULD warning'
      : persona.kind === 'variant'
        ? `accepts variant ${persona.name}${declare ? ' (declared in the profile)' : ''} without a MUST failure or an error`
        : `catches fault ${persona.name}: ${(persona.breaks ?? []).map((id) => `${clause(id).level} ${id}`).join(', ')}`;
    it(title, async () => {
      const run = await runPersona(persona, declare);
      runs.push(run);
      const problems = problemsOf(run);
      expect(problems, `\n${problems.join('\n')}\n`).to.deep.equal([]);
    });
  }

  it('scores 100%: every fault persona that ran was caught by a failed assertion of the clause it breaks', () => {
    const faults = runs.filter((r) => r.kind === 'fault');
    const { caught, total } = score(runs);
    const missed = faults.filter((r) => r.catching.length === 0).map((r) => r.name);
    expect(total, 'no fault persona ran').to.be.greaterThan(0);
    expect(missed, `mutation score ${caught}/${total}; missed: ${missed.join(', ')}`).to.deep.equal([]);
  });
});
