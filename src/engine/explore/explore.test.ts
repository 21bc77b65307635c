// Exploration against the bundled simulator: it passes the clean one within its budget, catches a fault no
// hand-written case catches, shrinks the finding, and the YAML case it hands over replays the finding by itself.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { embeddedSimulator } from '../../compose.js';
import { defaults, type Profile } from '../../config/profile.js';
import type { CaseResult } from '../../core/results.js';
import { personaByName, type Persona } from '../../../simulator/personas/index.js';
import { runConformance, type RunOptions } from '../run.js';
import { loadSuites } from '../suite.js';
import { rdxProcess } from '../../../test/support/cli.js';

const FAULT = 'fractional-seconds-dropped';

async function explore(profile: Partial<Profile>, persona?: string, rest: Partial<RunOptions> = {}): Promise<CaseResult[]> {
  const personas = persona ? [personaByName(persona) as Persona] : undefined;
  const { report } = await runConformance({
    reporter: 'none', filters: { tags: ['explore'] }, ...rest, profile: { ...defaults(), ...profile },
    simulator: embeddedSimulator(personas ? { personas } : {}),
  });
  return report.cases;
}

const byId = (cases: CaseResult[], id: string): CaseResult => cases.find((c) => c.id === id) as CaseResult;

describe('exploration (docs/explore.md)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-explore-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds nothing wrong with the clean simulator, and searches within its request budget', async () => {
    const cases = await explore({ explore: { requests: 150, seconds: 30 } });
    const explored = cases.filter((c) => c.id.startsWith('explore.'));
    expect(explored.map((c) => c.id)).to.have.members(['explore.application-steps', 'explore.ats-job-offers', 'explore.jobboard-activities', 'explore.jobboard-job-offers', 'explore.credentials']);
    for (const c of explored) {
      expect(c.verdict, `${c.id}: ${c.assertions.filter((a) => !a.passed).map((a) => a.message).join('; ')}`).to.equal('pass');
      expect(c.explore?.sequences, c.id).to.be.above(0);
      // The budget is checked before each command: the last one and its reads may run a little past it.
      expect(c.explore?.requests, c.id).to.be.within(1, 150 + 60);
      expect(c.assertions.length, `${c.id} says what it judged`).to.be.above(0);
    }
  });

  it('catches a fault the hand-written cases miss, shrinks it, and hands over a YAML case that replays it', async () => {
    const cases = await explore({ seed: 3 }, FAULT);
    const found = byId(cases, 'explore.application-steps');
    expect(found.verdict).to.equal('fail');
    expect(found.assertions.filter((a) => !a.passed).map((a) => a.clause)).to.include('WRITE.READ_BACK');
    expect(found.explore?.steps, 'shrunk').to.be.within(2, 12);
    expect(found.exchanges.length).to.be.above(1);
    const file = join(dir, 'regression.yaml');
    writeFileSync(file, found.explore?.regression ?? '');
    const [regression] = loadSuites([file]);
    expect(regression?.steps.length).to.equal(found.explore?.steps);
    // The case replays the finding by itself against the same fault, and passes against the clean simulator.
    const { report: again } = await runConformance({ reporter: 'none', suiteFiles: [file], profile: defaults(), simulator: embeddedSimulator({ personas: [personaByName(FAULT) as Persona] }) });
    expect(again.cases[0]?.verdict).to.equal('fail');
    const { report: clean } = await runConformance({ reporter: 'none', suiteFiles: [file], profile: defaults(), simulator: embeddedSimulator() });
    expect(clean.cases[0]?.verdict, clean.cases[0]?.assertions.filter((a) => !a.passed).map((a) => a.message).join('; ')).to.equal('pass');
  });

  it('draws the same sequences from the same seed', async () => {
    const first = byId(await explore({ seed: 5 }, FAULT, { filters: { grep: 'explore.application-steps' } }), 'explore.application-steps');
    const second = byId(await explore({ seed: 5 }, FAULT, { filters: { grep: 'explore.application-steps' } }), 'explore.application-steps');
    expect(first.verdict).to.equal('fail');
    expect(second.explore?.seed).to.equal(first.explore?.seed);
    expect(second.explore?.regression).to.equal(first.explore?.regression);
  });

  it('counts running out of budget as no finding, and a budget of no request as nothing judged', async () => {
    const cases = await explore({ explore: { requests: 1, seconds: 30 } }, undefined, { filters: { grep: 'explore.application-steps' } });
    const c = byId(cases, 'explore.application-steps');
    expect(c.verdict).to.equal('pass');
    expect(c.explore?.requests).to.be.within(1, 40);
    const none = byId(await explore({ explore: { requests: 0, seconds: 30 } }, undefined, { filters: { grep: 'explore.application-steps' } }), 'explore.application-steps');
    expect(none.verdict).to.equal('skip');
    expect(none.unlock?.unlock).to.equal('--explore-budget');
  });

  it('refuses an --explore-budget that is not REQUESTS or REQUESTS/SECONDS, saying so', async () => {
    const ended = await rdxProcess(['run', '--explore-budget', 'lots', '--client-id', 'a', '--client-secret', 'b']);
    expect(ended.code).to.equal(2);
    expect(ended.stderr).to.match(/--explore-budget "lots": give REQUESTS or REQUESTS\/SECONDS/);
  });
});
