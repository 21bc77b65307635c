// One step of a case: its request sent (once per list encoding it tries), its pages walked, its answer judged, and
// what it captures and observes passed on to the steps after it.
import { operation as operationOf, type Operation } from '../spec/index.js';
import type { Exchange, Unlock } from '../core/results.js';
import type { StepDef } from './suite.js';
import { Stop, assertion, type CaseRun, type Judged } from './case-run.js';
import { buildRequest, listEncodings, send, type ListEncoding } from './request.js';
import { walk } from './walk.js';
import { expectation, globalJudgements, levelOf, type Answer } from './expectations.js';
import { setupClause } from './controls.js';
import { createdId, learnJobOfferIds } from './created-ids.js';
import { extract, observedValue } from './step-paths.js';
import { observe } from './observations.js';
import { idSourceUnlock } from './id-sources.js';

/** What unlocks a case whose open-point precondition did not hold (the implementation chose another reading). */
const INTERPRETATION_UNLOCK: Record<string, Unlock> = { ATS_JOB_OFFER_ID: idSourceUnlock('job-offer') };

/** One sending of a step's request (one per list encoding tried) with its judged expectations. */
interface Attempt {
  encoding: ListEncoding | undefined;
  first: Exchange;
  stepExchanges: Exchange[];
  judgements: Judged[];
}

/** How a step is judged: a setup step and the steps of an OBSERVE case (preconditions) give no verdict of their own. */
interface StepRole {
  setup: boolean;
  precondition: boolean;
  /** The clause a setup step's `outcome: success` judges (a valid write), if any. */
  outcomeClause: string | undefined;
}

/** Runs a step; returns false when the case must stop (a failed expectation). */
export async function runStep(run: CaseRun, step: StepDef): Promise<boolean> {
  const op = step.operation ? operationOf(step.operation) : undefined;
  await learnJobOfferIds(run, step);
  const body = step.body === undefined ? undefined : run.resolve(step.body);
  const setup = step.setup === true;
  // The steps of an OBSERVE case ask a question: what they expect are its preconditions, never a verdict.
  const role: StepRole = { setup, precondition: !setup && run.c.level === 'OBSERVE', outcomeClause: setup ? setupClause(run, step, op, body) : undefined };
  const attempt = chooseAttempt(step, await sendAttempts(run, step, op, body, role));
  const { first, stepExchanges, judgements } = attempt;
  const answer: Answer = { ex: first, stepExchanges, op, body };
  if (!role.setup && !role.precondition) judgements.push(...globalJudgements(run, answer));
  if (!settle(run, step, judgements, role)) return false;
  await capture(run, step, answer, attempt.encoding);
  const index = run.indexOf(first);
  for (const [key, how] of Object.entries(step.observe ?? {})) {
    const value = how === '$listEncoding' ? attempt.encoding : observedValue(run, how, first, stepExchanges, body);
    observe(run, key, value, index);
  }
  const passed = !judgements.some((j) => !j.passed);
  if (passed && step.control !== undefined) run.controls.push({ step, op, body });
  return passed;
}

/**
 * Sends the step's request. A step with tryListEncodings sends it once per list encoding (REFERENCE_LIST_ENCODING)
 * until one meets its expectations; every other step makes one attempt.
 */
async function sendAttempts(run: CaseRun, step: StepDef, op: Operation | undefined, body: unknown, role: StepRole): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  for (const encoding of listEncodings(run, step)) {
    const request = await buildRequest(run, step, op, body, encoding);
    const first = await send(run, step, request, step.name, op && { op, body });
    const stepExchanges = [first];
    if (step.paginate && !first.transportError) stepExchanges.push(...(await walk(run, step, first)));
    const broken = stepExchanges.find((e) => e.transportError);
    if (broken) {
      throw new Stop('error', `step "${step.name}": no answer from ${broken.request.method} ${run.services.secrets.scrubUrl(broken.request.url)}: ${broken.transportError?.message}`);
    }
    const index = run.indexOf(first);
    const judgements: Judged[] = [];
    for (const e of [step.expect ?? []].flat()) {
      const block = expectation(run, e, { ex: first, stepExchanges, op, body }, role.setup, role.outcomeClause);
      // In a setup step, an answer that is not the success the block needs as its precondition (a record the run
      // cannot address under another reading of an open point) gives the block's checks nothing to judge.
      const unmet = role.setup && block.some((j) => j.check === 'expect.outcome' && j.clause === '' && !j.passed);
      for (const j of unmet ? block.filter((x) => x.check === 'expect.outcome') : block) judgements.push({ ...j, exchange: index });
    }
    attempts.push({ encoding, first, stepExchanges, judgements });
    if (judgements.every((j) => j.passed)) break;
  }
  return attempts;
}

/**
 * The attempt a step is judged by: the first that met every expectation; else the first with a conclusive failure
 * (a judgement not marked inconclusive). When every attempt of a tryListEncodings step failed only inconclusively
 * (no encoding was understood), the step cannot be judged, and the case is skipped saying what each answered.
 */
function chooseAttempt(step: StepDef, attempts: Attempt[]): Attempt {
  const passed = attempts.find((a) => a.judgements.every((j) => j.passed));
  if (passed) return passed;
  const conclusive = attempts.find((a) => a.judgements.some((j) => !j.passed && !j.inconclusive));
  if (conclusive || !step.tryListEncodings) return conclusive ?? (attempts[0] as Attempt);
  const tried = attempts.map((a) => `${a.encoding ?? 'repeat'}: ${a.judgements.find((j) => !j.passed)?.message ?? '?'}`).join('; ');
  throw new Stop('skip', `step "${step.name}": no list encoding tried was understood (${tried}); declare referenceListEncoding in the profile to judge it`,
    { unlock: 'declared.referenceListEncoding', how: 'declare how the implementation encodes a list of references in a query (referenceListEncoding in the profile)' });
}

/**
 * Turns the step's judgements into assertions. A setup step is judged like any other: a MUST clause it breaks (a
 * valid create refused, created records missing from data) fails the case, and is its reported cause (false: the
 * case stops). Only a precondition that rests on no MUST clause (an open point read otherwise, an answer shape the
 * spec allows) may turn the case into a skip.
 */
function settle(run: CaseRun, step: StepDef, judgements: Judged[], role: StepRole): boolean {
  const { setup, precondition } = role;
  if (!setup && !precondition) {
    run.assert(judgements);
    return true;
  }
  const failed = judgements.filter((j) => !j.passed);
  const broke = setup ? failed.filter((j) => levelOf(j.clause) === 'MUST') : [];
  if (broke.length) {
    for (const j of broke) run.result.assertions.push({ ...assertion(j), message: `setup step "${step.name}": ${j.message}` });
    return false;
  }
  const first = failed[0];
  if (first) {
    const why = `${setup ? 'setup ' : ''}step "${step.name}" did not go as needed (${first.clause ? `${first.clause}: ` : ''}${first.message})`;
    const unlock = (precondition ? INTERPRETATION_UNLOCK[run.c.clauses[0] ?? ''] : undefined)
      ?? { unlock: 'an answer the case can build on', how: `${why}; the spec allows this answer, so the case cannot go on` };
    throw new Stop('skip', why, unlock);
  }
  return true;
}

/** Captures the step's values into the case's variables; one it cannot capture is noted as missing, saying why. */
async function capture(run: CaseRun, step: StepDef, answer: Answer, listEncoding: ListEncoding | undefined): Promise<void> {
  const { ex: first, stepExchanges, op, body } = answer;
  const { vars, missing } = run;
  for (const [name, path] of Object.entries(step.capture ?? {})) {
    const created = /^\$created\.(\d+)\.id$/.exec(path);
    const got = created ? await createdId(run, step, op, body, Number(created[1]), first)
      : { value: path === '$listEncoding' ? listEncoding : extract(path, first, stepExchanges, body) };
    if ('why' in got) {
      delete vars[name];
      missing.set(name, { why: got.why, ...(got.unlock ? { unlock: got.unlock } : {}) });
    } else if (got.value === undefined) {
      delete vars[name];
      missing.set(name, { why: `step "${step.name}" gave no ${path} to go on with (captured as ${name})` });
    } else vars[name] = got.value;
  }
}
