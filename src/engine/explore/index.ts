// Exploration: stateful property-based testing of what the spec fixes. fast-check draws sequences of commands
// (commands.ts, credentials.ts) over the whole value domain (values.ts); each sequence runs against the target with a
// model of what it must have stored, and every step is judged like a suite step (the named checks of src/checks).
// A failing sequence is shrunk by fast-check to the shortest that still fails, and reported as the case's finding,
// with the YAML case that replays it. The budget (requests and time) bounds the search; running out is no finding.
import fc from 'fast-check';
import type { CaseRun } from '../case-run.js';
import { Stop } from '../case-run.js';
import type { Assertion } from '../../core/results.js';
import { clause as clauseOf } from '../../spec/index.js';
import { commandsOf } from './arbitraries.js';
import { vocabularyOf, FAMILIES, type ExploreModel } from './families.js';
import { regressionCase } from './replay.js';
import { Budget, Session } from './session.js';

export { EXPLORE_MODELS, exploreEndpoints, type ExploreModel } from './families.js';

/** What one explore case may spend, unless the profile (explore:, --explore-budget) says otherwise. */
export const DEFAULT_EXPLORE_BUDGET = { requests: 400, seconds: 20 } as const;

/** Commands per sequence: long enough for a write to meet the record it leaks into, short enough to shrink fast. */
const MAX_COMMANDS = 8;

/** Runs the explore case: searches within the budget, then fills the case's result with its finding, if any. */
export async function runExploration(run: CaseRun, model: ExploreModel, seed: number): Promise<void> {
  const { profile } = run.services;
  const limits = profile.explore ?? DEFAULT_EXPLORE_BUDGET;
  const budget = new Budget(limits.requests, limits.seconds * 1000);
  const statuses = model === 'jobboard-activities' ? vocabularyOf(FAMILIES[model], 'status', profile.declared) ?? [] : [];
  let seq = 0;
  let finding: Session | undefined;
  let stop: Stop | undefined;
  const passed = new Map<string, number>();
  const property = fc.asyncProperty(fc.commands(commandsOf(model, profile.declared), { maxCommands: MAX_COMMANDS }), async (commands) => {
    // Ends the search (an interrupt, not a failure): returning would let fast-check draw every sequence numRuns
    // allows, only for each to end here at once; that drawing was a fifth of a small-budget run's CPU.
    if (budget.exhausted() || stop) throw new fc.PreconditionFailure(true);
    const s = new Session(run.c, run.services, ++seq, budget, statuses);
    try {
      await fc.asyncModelRun(() => ({ model: s, real: s }), commands);
    } catch (error) {
      if (s.failed()) finding = s;
      throw error;
    } finally {
      stop ??= s.stop;
      for (const a of s.run.result.assertions) if (a.passed) passed.set(a.clause, (passed.get(a.clause) ?? 0) + 1);
    }
  });
  const details = await fc.check(property, { seed, numRuns: 1_000, interruptAfterTimeLimit: limits.seconds * 1000, markInterruptAsFailure: false });
  run.result.explore = { seed, sequences: seq, requests: budget.spent, ...(finding ? { shrinks: details.numShrinks } : {}) };
  if (finding) return report(run, finding, seed);
  if (details.failed && details.errorInstance) throw details.errorInstance;
  if (stop) throw stop;
  // No budget (requests: 0) is a choice to judge nothing here, which a pass would hide.
  if (budget.spent === 0) {
    throw new Stop('skip', 'the explore budget allows no request', { unlock: '--explore-budget', how: 'give exploration a budget: rdx run --explore-budget 400 (or explore: { requests: 400, seconds: 20 } in the profile)' });
  }
  run.result.assertions.push(...summary(passed, seq));
}

/** The finding: the shrunk sequence's exchanges and judgements become the case's, with the YAML case that replays it. */
function report(run: CaseRun, s: Session, seed: number): void {
  const { result } = run;
  result.exchanges.push(...s.run.result.exchanges);
  result.assertions.push(...s.run.result.assertions);
  result.observations.push(...s.run.result.observations);
  result.explore = { ...(result.explore ?? { seed, sequences: 0, requests: 0 }), steps: s.steps.length, regression: regressionCase(run.c, s, seed) };
}

/** A passing search in a line per clause it judged: how often, over how many sequences. */
function summary(passed: Map<string, number>, sequences: number): Assertion[] {
  return [...passed].map(([clause, n]) => ({
    clause, level: clauseOf(clause).level,
    passed: true, message: `${n} judgement(s) over ${sequences} generated sequence(s), none failed`, check: 'explore',
  }));
}
