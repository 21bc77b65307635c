import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allPersonas, personaByName, type Persona } from '../../simulator/personas/index.js';
import { isAlive } from '../../simulator/state.js';
import type { CaseResult } from '../core/results.js';
import { createRunPool, selfCheckWorkers } from './pool.js';
import {
  KNOWN_MISSES, caseOutcome, mostlyWaits, outcomeDifferences, type CaseOutcome, plannedRuns, problemsOf, runPersonaBoth, score,
  type PersonaRun,
} from './index.js';
import { plannedRunTests } from '../../test/support/selfcheck.js';

describe('self-check rules', () => {
  it('a variant run with its whole profile (its id sources) is a problem unless it is complete and CONFORMANT', () => {
    const base: PersonaRun = {
      name: 'some-variant', kind: 'variant', description: '', breaks: [], declared: true, profiled: true,
      summary: { verdict: 'CONFORMANT', toComplete: [] } as unknown as PersonaRun['summary'],
      mustFailures: [], shouldFailures: [], errors: [], skipped: [], catching: [], collateral: [], durationMs: 0, outcomes: [],
    };
    expect(problemsOf(base)).to.deep.equal([]);
    const incomplete = { ...base, summary: { verdict: 'INCOMPLETE', toComplete: [{ unlock: 'idSources.applicationStep', how: '', cases: ['a', 'b'] }] } as unknown as PersonaRun['summary'] };
    expect(problemsOf(incomplete)).to.deep.equal(['some-variant (declared): INCOMPLETE although the profile gives what the variant needs: idSources.applicationStep (2 case(s))']);
    // Without its profile a variant may be incomplete: that is what the unlock list is for.
    expect(problemsOf({ ...incomplete, profiled: false })).to.deep.equal([]);
  });

  it('a persona that limits DELETEs whose run met no throttled answer in the end-of-run sweep is a problem', () => {
    const base = { name: 'rate-limited', kind: 'variant', declared: false, mustFailures: [], shouldFailures: [], errors: [], profiled: false } as unknown as PersonaRun;
    expect(problemsOf({ ...base, sweepThrottled: 0 })).to.deep.equal(['rate-limited: the end-of-run sweep met no throttled answer, so this run proves nothing about waiting in it']);
    expect(problemsOf({ ...base, sweepThrottled: 3 })).to.deep.equal([]);
    // Personas that do not limit DELETEs say nothing of the sweep.
    expect(problemsOf(base)).to.deep.equal([]);
    const limiting = allPersonas().filter((p) => p.options?.deleteRateLimit !== undefined).map((p) => p.name).sort();
    expect(limiting).to.deep.equal(['rate-limited', 'rate-limited-http-date']);
  });

  it('a case whose verdict or failing clauses differ between --concurrency 1 and the default is a problem', () => {
    const assertion = (clauseId: string, passed: boolean, exchange: number): CaseResult['assertions'][number] =>
      ({ clause: clauseId, level: 'MUST', passed, message: '', check: 'c', exchange });
    const result = (id: string, assertions: CaseResult['assertions'], steps: string[]): CaseResult => ({
      id, title: '', level: 'MUST', clauses: [], endpoints: [], tags: [], tier: 'read-only', file: 'f:1', verdict: assertions.some((a) => !a.passed) ? 'fail' : 'pass',
      assertions, observations: [], exchanges: steps.map((step) => ({ step, request: { method: 'GET', url: 'http://127.0.0.1/', headers: {} }, startedAt: '', elapsedMs: 0 })), durationMs: 0,
    });
    const serial = [caseOutcome(result('a', [assertion('X.ONE', true, 0)], ['get'])), caseOutcome(result('b', [assertion('X.TWO', false, 0)], ['get']))];
    const one = (outcomes: CaseOutcome[]): { label: string; outcomes: CaseOutcome[] } => ({ label: 'at --concurrency 1', outcomes });
    const eight = (outcomes: CaseOutcome[]): { label: string; outcomes: CaseOutcome[] } => ({ label: 'at 8', outcomes });
    expect(outcomeDifferences(one(serial), eight(serial))).to.deep.equal([]);
    const concurrent = [caseOutcome(result('a', [assertion('X.ONE', false, 0)], ['get'])), serial[1] as CaseOutcome];
    expect(outcomeDifferences(one(serial), eight(concurrent))).to.deep.equal(['case a: pass at --concurrency 1, fail (MUST X.ONE) at 8']);
    expect(outcomeDifferences(one(serial), eight(serial.slice(1)))).to.deep.equal(['case a ran at --concurrency 1 only']);
    // A throttled answer's judgement is in whichever case met the rate limit: not compared case by case.
    const throttled = caseOutcome(result('a', [assertion('X.ONE', true, 1), assertion('ENVELOPE.ERROR_BODY', false, 0)], ['token (throttled, sent again)', 'get']));
    expect(throttled).to.deep.equal({ id: 'a', verdict: 'pass', failing: [] });
    const base = { name: 'v', kind: 'variant', declared: false, mustFailures: [], shouldFailures: [], errors: [], profiled: false } as unknown as PersonaRun;
    expect(problemsOf({ ...base, serialDifferences: ['case a: …'] })).to.deep.equal(['v: not the same at both concurrencies: case a: …']);
  });
});

describe('self-check: a fault runs first with only the cases citing what it breaks', function () {
  this.timeout(120_000);

  it('keeps that narrowed run when it catches the fault, and runs every case when it does not', async () => {
    // wrong-secret-accepted breaks a clause its own cases declare; html-error-pages one only a global check judges
    // (every answer's envelope), which the cases declaring it do not meet: only the whole run catches it.
    const declared = await runPersonaBoth(personaByName('wrong-secret-accepted'), false, false);
    expect(declared.narrowed).to.equal(true);
    expect(declared.catching).to.include('token.wrong-secret');
    expect(declared.summary.total).to.be.below(10);
    const global = await runPersonaBoth(personaByName('html-error-pages'), false, false);
    expect(global.narrowed).to.equal(undefined);
    expect(global.catching).to.not.be.empty;
    expect(global.summary.total).to.be.above(100);
    expect(problemsOf(global)).to.deep.equal([]);
  });
});

describe('self-check runs side by side (pool.ts)', () => {
  it('takes its number of workers from RDX_SELFCHECK_WORKERS, else one a core up to 2', () => {
    expect(selfCheckWorkers({ RDX_SELFCHECK_WORKERS: '3' }, 2)).to.equal(3);
    expect(selfCheckWorkers({ RDX_SELFCHECK_WORKERS: 'x' }, 1)).to.equal(1);
    expect(selfCheckWorkers({}, 8)).to.equal(2);
  });

  it('hands a worker\'s failure back to the run that asked, and the workers end when closed', async function () {
    this.timeout(30_000);
    const pool = createRunPool<PersonaRun>(2, () => Promise.reject(new Error('not in this process')));
    const asked = await pool.run({ name: 'no-such-persona' } as Persona, false, false).then(() => 'ran', (e: Error) => e.message);
    await pool.close();
    expect(asked).to.equal('no persona named no-such-persona');
  });

  it('plans a second run at --concurrency 1 for what schedule.ts names, and for all with --every-concurrency', () => {
    const both = plannedRuns().filter((p) => p.both !== undefined).map((p) => p.persona?.name ?? 'clean');
    expect(both).to.include.members(['clean', 'get-returns-latest', 'rate-limited', 'duplicate-across-pages']);
    expect(both).to.not.include('missing-message');
    expect(plannedRuns(undefined, true).every((p) => p.both !== undefined)).to.equal(true);
  });

  it('gives a run that mostly waits a process of its own, which ends with it, beside workers that are all busy', async function () {
    this.timeout(30_000);
    // A stand-in worker: holds a run named "hold" for ever, answers any other with its own pid.
    const dir = mkdtempSync(join(tmpdir(), 'rdx-pool-'));
    const entry = join(dir, 'worker.mjs');
    writeFileSync(entry, [
      "process.on('message', (r) => { if (r.persona !== 'hold') process.send({ id: r.id, run: { name: r.persona, pid: process.pid } }); });",
      "process.on('disconnect', () => process.exit(0));",
    ].join('\n'));
    const pool = createRunPool<{ name: string; pid: number }>(2, () => Promise.reject(new Error('not in this process')),
      { entry, alone: (persona) => persona?.name === 'waits' });
    const ended = (run: Promise<unknown>): Promise<string> => run.then(() => 'ran', (e: Error) => e.message);
    // Bounded: a run queued behind the held ones would never end.
    const within = <T>(run: Promise<T>): Promise<T | 'still waiting after 10 s'> =>
      Promise.race([run, new Promise<'still waiting after 10 s'>((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000).unref())]);
    try {
      const held = [pool.run({ name: 'hold' } as Persona, false, false), pool.run({ name: 'hold' } as Persona, false, false)].map(ended);
      const queued = ended(pool.run({ name: 'queued' } as Persona, false, false));
      const waits = await within(pool.run({ name: 'waits' } as Persona, false, false));
      const second = await within(pool.run({ name: 'waits' } as Persona, false, false));
      if (waits === 'still waiting after 10 s' || second === 'still waiting after 10 s') expect.fail('a run that mostly waits was queued behind the busy workers');
      expect(waits.name).to.equal('waits');
      expect(second.pid, 'each run that mostly waits has a process of its own').to.not.equal(waits.pid);
      // Its process ends with its run, before the pool is closed.
      for (let i = 0; i < 100 && (isAlive(waits.pid) || isAlive(second.pid)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect([waits.pid, second.pid].filter(isAlive), 'processes still alive after their run').to.deep.equal([]);
      await pool.close();
      // The held runs end with the pool, and so does the run queued behind them: no worker was free to take it.
      expect(await Promise.all([...held, queued])).to.deep.equal(Array(3).fill('a self-check worker ended (exit code 0) with runs still to make'));
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the rate-limited personas, and only them, as the runs that mostly wait', () => {
    const waiting = plannedRuns().filter((p) => mostlyWaits(p.persona)).map((p) => p.persona?.name);
    expect(waiting).to.have.members(['rate-limited', 'rate-limited-http-date', 'plain-text-429']);
  });
});

describe('self-check: the harness judged against its own simulator', function () {
  // One full run takes about a second; the fault with 2-second tokens waits for one to expire. A run at both
  // concurrencies is two runs. The runs that mostly wait (rate limits) are rate-limited.test.ts's.
  this.timeout(180_000);
  const plan = plannedRuns().filter((p) => !mostlyWaits(p.persona));
  const { runOf, settled } = plannedRunTests(plan);

  it('catches 100% of the fault personas but the known misses, which await the suite changes listed with them', async function () {
    this.timeout(600_000);
    const planned = plan.flatMap((p, index) => (p.persona?.kind === 'fault' ? [{ ...p, index }] : []));
    const faultNames = allPersonas().filter((p) => p.kind === 'fault' && !mostlyWaits(p)).map((p) => p.name);
    expect(planned.map((p) => p.persona?.name), 'every fault persona that needs a core is planned, once').to.have.members(faultNames).and.not.be.empty;
    // All asked for at once: the pool runs them side by side, as many as it has workers.
    const runs = await Promise.all(planned.map((p) => runOf(p.index)));
    // Under --grep the per-persona tests did not run: the table shows these runs instead.
    for (const run of runs) if (!settled.includes(run)) settled.push(run);
    const { caught, total, knownMisses } = score(runs);
    const missed = runs.filter((r) => r.catching.length === 0 && !(r.name in KNOWN_MISSES)).map((r) => r.name);
    expect(missed, `mutation score ${caught}/${total}; missed: ${missed.join(', ')}`).to.deep.equal([]);
    // A known miss stays missed (caught now, it leaves the list), so the score is exactly the faults not listed.
    expect({ total, caught, knownMisses })
      .to.deep.equal({ total: faultNames.length, caught: faultNames.length - knownMisses, knownMisses: Object.keys(KNOWN_MISSES).length });
    expect(Object.keys(KNOWN_MISSES).filter((name) => personaByName(name)?.kind !== 'fault'), 'KNOWN_MISSES names only fault personas').to.deep.equal([]);
    expect(Object.keys(KNOWN_MISSES).filter((name) => mostlyWaits(personaByName(name))), 'no known miss is run by rate-limited.test.ts').to.deep.equal([]);
  });
});
