// Exploration judged at many seeds (explore-seeds.ts): what counts as a problem, the table row, and one real run.
import { expect } from 'chai';
import { personaByName, type Persona } from '../../simulator/personas/index.js';
import { exploreAt, seedProblems, seedRow, type SeedRun } from './explore-seeds.js';

const run = (seed: number, findings: string[], steps: number[] = []): SeedRun => ({ seed, findings, steps, requests: 100, ms: 2000, unjudged: [] });
const persona = (name: string): Persona => personaByName(name) as Persona;

describe('exploration at many seeds', function () {
  this.timeout(120_000);

  it('accuses a variant of nothing but a MUST finding, and holds a fault made for exploration to every seed', () => {
    const variant = persona('dates-with-offset');
    expect(seedProblems(variant, [run(1, []), run(2, ['explore.x SHOULD REQUEST.BODY_TYPES'])])).to.deep.equal([]);
    expect(seedProblems(variant, [run(3, ['explore.x MUST WRITE.READ_BACK'])])).to.deep.equal(['dates-with-offset: false accusation at seed 3: explore.x MUST WRITE.READ_BACK']);
    const made = persona('fractional-seconds-dropped');
    expect(seedProblems(made, [run(1, ['explore.x MUST WRITE.READ_BACK']), run(2, ['explore.x MUST FILTER.REFERENCE'])]))
      .to.deep.equal(['fractional-seconds-dropped: not caught by exploration at seed(s) 2']);
    // A fault the suites are there to catch may go unseen by exploration.
    expect(seedProblems(persona('missing-message'), [run(1, [])])).to.deep.equal([]);
    expect(seedRow(made, [run(1, ['f'], [3]), run(2, ['f'], [5]), run(3, [])])).to.equal('| fractional-seconds-dropped | fault (for exploration) | 2/3 | 3 | 100 | 2.0 | 0 |');
  });

  it('runs the explore cases alone against a persona at a seed, and finds what the fault breaks', async () => {
    const found = await exploreAt(persona('credentials-case-insensitive'), 1, { requests: 120, seconds: 20 });
    expect(found.findings).to.include('explore.credentials MUST AUTH.CREDENTIALS_VERIFIED');
    expect(found.requests).to.be.above(0);
    expect(seedProblems(persona('credentials-case-insensitive'), [found])).to.deep.equal([]);
  });
});
