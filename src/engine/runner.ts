// Runs one case: its steps in order, each judged by its expectations and the global checks, into a CaseResult.
// The runner knows nothing of mocha or of output formats. What a case owns while it runs is its CaseRun; what the
// cases of a run share (RunServices) is made once here.
// First: the checks register in the index's order, the order the global checks judge (and are reported) in.
import '../checks/index.js';
import { operation as operationOf } from '../spec/index.js';
import type { CaseDef } from './suite.js';
import { verdictOf, type CaseResult, type ResidueEntry, type Unlock } from '../core/results.js';
import { idSourceKey, idSourceUnlock } from './id-sources.js';
import { notRunBecause, unlockOf } from '../core/verdict.js';
import { ThrottledAnswers } from './throttled.js';
import { CaseRun, Stop, type RunServices, type RunnerDeps } from './case-run.js';
import { ResidueLedger } from './residue.js';
import { ReportBudget } from './report-budget.js';
import { buildRequest, ownVerdict, send } from './request.js';
import { runStep } from './step.js';
import { runControl } from './controls.js';
import { runExploration } from './explore/index.js';
import { caseSeed } from './case-seed.js';

export type { RunnerDeps } from './case-run.js';
export { LIST_ENCODINGS, type ListEncoding } from './request.js';

const UNLOCK = {
  irreversible: { unlock: '--allow-irreversible', how: 'run with --allow-irreversible (or allowIrreversible: true in the profile) against a target whose users may be replaced' },
  fixtures: { unlock: 'fixtures.atsJobOfferIds', how: 'give the {id} of an existing ATS job offer in the profile (fixtures.atsJobOfferIds; rdx init --base-url finds one)' },
} satisfies Record<string, Unlock>;

export class Runner {
  /** The services every case of the run shares. */
  readonly services: RunServices;

  constructor(deps: RunnerDeps) {
    this.services = {
      ...deps,
      results: new Map(),
      ledger: new ResidueLedger(deps.gen.invalidItems, deps.ids),
      budget: new ReportBudget(deps.secrets, deps.http),
      throttled: new ThrottledAnswers(deps.profile.declared, deps.gen.invalidItems),
      walking: { bytes: 0 },
    };
  }

  /** The results of the cases run so far, by case id. */
  get results(): Map<string, CaseResult> {
    return this.services.results;
  }

  /** What the run created on the target (and deleted again). */
  get ledger(): ResidueEntry[] {
    return this.services.ledger.entries;
  }

  /** Runs a case; the throttled answers its requests meet are its own (CaseRun.throttledAnswers), whatever runs beside it. */
  async runCase(c: CaseDef): Promise<CaseResult> {
    const started = performance.now();
    const run = new CaseRun(c, this.services);
    const { result } = run;
    const { secrets, throttled } = this.services;
    try {
      this.checkPreconditions(c);
      for (const [name, value] of Object.entries(c.vars ?? {})) run.vars[name] = run.resolve(value);
      if (c.explore) await runExploration(run, c.explore, caseSeed(this.services.profile.seed, c.id));
      else {
        try {
          await runSteps(run);
        } finally {
          await cleanUp(run);
        }
      }
      result.verdict = verdictOf(c.level, result.assertions);
    } catch (error) {
      unjudged(result, error);
    }
    throttled.settle(run.throttledFailures, result.verdict !== 'skip' && result.verdict !== 'error');
    await run.storeAll();
    if (result.reason) result.reason = secrets.scrub(result.reason);
    result.assertions = result.assertions.map((a) => ({ ...a, message: secrets.scrub(a.message) }));
    // Nothing of the case makes data any more: its faker may serve the next case.
    run.gen.release?.();
    result.durationMs = Math.round(performance.now() - started);
    this.services.results.set(c.id, result);
    return result;
  }

  private checkPreconditions(c: CaseDef): void {
    for (const id of c.requires) {
      const r = this.services.results.get(id);
      if (!r) throw new Stop('skip', `prerequisite ${id} did not run`, { unlock: 'without --bail', how: `run ${id} too` });
      // The prerequisite carries the failure; this case says once what it waits for. A prerequisite that failed only
      // on a throttled answer it met (reported once per endpoint, by whichever case met it first) established what it
      // is about: its dependents run, or a run side by side would skip them where one at a time judges them.
      const own = ownVerdict(r);
      if (own === 'fail' || own === 'error') {
        const what = own === 'fail' ? 'failed' : 'errored';
        throw new Stop('skip', notRunBecause(id, what), { unlock: `fix ${id}`, how: `${id} ${what}: once it passes, this case runs` });
      }
      if (r.verdict === 'skip') throw new Stop('skip', `not run because ${id} was skipped${r.reason ? `: ${r.reason}` : ''}`, unlockOf(r));
    }
    const { profile, ids } = this.services;
    if (c.when?.atsJobOfferId && profile.declared['atsJobOfferId'] === 'fixtures' && !ids?.has('job-offer')) {
      throw new Stop('skip', `the profile declares atsJobOfferId: fixtures and gives no ${idSourceKey('job-offer')}, so a job offer created by the run cannot be addressed by {id}`, idSourceUnlock('job-offer'));
    }
    if (c.when?.atsJobOfferFixtures && !profile.fixtures.atsJobOfferIds?.length) {
      throw new Stop('skip', 'no fixtures.atsJobOfferIds in the profile: give the {id} of an existing ATS job offer to read it', UNLOCK.fixtures);
    }
    if (c.tier === 'irreversible' && !profile.allowIrreversible) {
      throw new Stop('skip', 'irreversible (it replaces or removes data it cannot restore): runs only with --allow-irreversible', UNLOCK.irreversible);
    }
  }
}

/** The case's steps in order, then the controls of its refused probes. */
async function runSteps(run: CaseRun): Promise<void> {
  let completed = true;
  for (const step of run.c.steps.filter((s) => !s.cleanup)) {
    const ok = await runStep(run, step);
    // Judged: its pages are masked and cut as the next request goes out, not held parsed to the end of the case.
    run.judged();
    if (!ok) {
      completed = false;
      break;
    }
  }
  // A probe that was not refused has failed already: its control has nothing left to prove.
  if (completed) for (const pending of run.controls) await runControl(run, pending);
}

/** Runs the case's cleanup steps whatever happened before; they are never judged and never fail the case. */
async function cleanUp(run: CaseRun): Promise<void> {
  for (const step of run.c.steps.filter((s) => s.cleanup)) {
    try {
      const op = step.operation ? operationOf(step.operation) : undefined;
      const body = step.body === undefined ? undefined : run.resolve(step.body);
      const request = await buildRequest(run, step, op, body);
      await send(run, step, request, `cleanup: ${step.name}`, op && { op, body });
    } catch {
      // Nothing to clean (what it names was never created), or no answer: the residue ledger keeps the record.
    }
  }
}

/** A case ended early: skipped or errored, saying why. */
function unjudged(result: CaseResult, error: unknown): void {
  if (error instanceof Stop) {
    result.verdict = error.verdict;
    result.reason = error.reason;
    if (error.verdict === 'skip' && error.unlock) result.unlock = error.unlock;
  } else {
    result.verdict = 'error';
    result.reason = `harness error: ${(error as Error).message}`;
    if (process.env['RDX_DEBUG']) process.stderr.write(`${(error as Error).stack}\n`);
  }
}
