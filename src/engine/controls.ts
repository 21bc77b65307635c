// Controls of negative probes: a refusal proves a rule only when the same request minus the one difference succeeds.
import { outcomeOf } from '../checks/registry.js';
import type { Operation } from '../spec/index.js';
import type { ControlDef, StepDef } from './suite.js';
import { Stop, type CaseRun, type PendingControl } from './case-run.js';
import { buildRequest, send } from './request.js';
import { describeBody, levelOf } from './expectations.js';
import { learnJobOfferIds } from './created-ids.js';

/**
 * The clause a setup step's plain outcome expectation judges: a valid write the spec says the service accepts.
 * Reads are left out: what they address may rest on an open point (ATS_JOB_OFFER_ID, the list encoding).
 */
const SETUP_CLAUSE: Partial<Record<Operation['kind'], string>> = {
  batchCreate: 'BATCH.ACCEPTS_ARRAY',
  replace: 'WRITE.READ_BACK',
  patch: 'WRITE.PATCH_PARTIAL',
};

/**
 * Sends the control of a negative probe: the probe's request with the one difference under test removed. It must
 * succeed, or the refusal proved nothing: a valid write refused fails the clause a valid write rests on (as in a
 * setup step), and any other refused control skips the case, saying so.
 */
export async function runControl(run: CaseRun, pending: PendingControl): Promise<void> {
  const { step, op } = pending;
  const { c, result } = run;
  const given = (typeof step.control === 'string' ? run.resolve(step.control) : step.control) as ControlDef;
  const { control, body } = controlOf(run, pending, given);
  await learnJobOfferIds(run, control);
  const request = await buildRequest(run, control, op, body);
  const ex = await send(run, control, request, `control: ${step.name}`, op && { op, body });
  if (ex.transportError) throw new Stop('error', `control of step "${step.name}": no answer: ${ex.transportError.message}`);
  const index = run.indexOf(ex);
  const status = ex.response?.status;
  const what = describeControl(given);
  if (outcomeOf(ex) === 'success') {
    const clause = c.clauses.find((id) => levelOf(id) !== undefined);
    if (clause) result.assertions.push({ clause, level: levelOf(clause) as 'MUST' | 'SHOULD', passed: true, check: 'control', exchange: index,
      message: `control: the same request ${what} succeeded with ${status}, so the refusal of "${step.name}" was for the difference under test` });
    return;
  }
  const clause = setupClause(run, control, op, body);
  if (clause && levelOf(clause) === 'MUST') {
    result.assertions.push({ clause, level: 'MUST', passed: false, check: 'control', exchange: index,
      message: `control of "${step.name}": the same request ${what}, a valid write, was refused with ${status}: ${describeBody(ex)}` });
    return;
  }
  const why = `the control of step "${step.name}" (the same request ${what}) was refused too, with ${status}: ${describeBody(ex)}; so the probe's refusal proves nothing`;
  throw new Stop('skip', why, { unlock: 'a control that succeeds', how: `${why}. Make the control request succeed (e.g. the record it names must exist and be writable)` });
}

/** The control step and the body it sends: the probe's, with what the control gives in its place. */
function controlOf(run: CaseRun, pending: PendingControl, given: ControlDef): { control: StepDef; body: unknown } {
  const { step } = pending;
  const { repair, body: replaced, ...fields } = given;
  const control: StepDef = { ...step, ...fields, name: `control of ${step.name}` };
  delete control.control;
  let body = pending.body;
  if (replaced !== undefined) body = run.resolve(replaced);
  else if (repair) body = repaired(run, body);
  if (replaced !== undefined || repair) delete control.rawBody;
  if (fields.rawBody !== undefined) body = undefined;
  return { control, body };
}

/** The body with every $invalid item as it was before it was spoiled. */
function repaired(run: CaseRun, body: unknown): unknown {
  const fix = (item: unknown): unknown => (item && typeof item === 'object' ? run.services.gen.repaired.get(item) ?? item : item);
  return Array.isArray(body) ? body.map(fix) : fix(body);
}

/** The clause a setup step's outcome expectation judges: a valid write the spec says succeeds (SETUP_CLAUSE). */
export function setupClause(run: CaseRun, step: StepDef, op: Operation | undefined, body: unknown): string | undefined {
  if (!op || step.rawBody !== undefined || (step.auth ?? 'default') !== 'default' || step.headers || step.contentType) return undefined;
  const clause = SETUP_CLAUSE[op.kind];
  if (!clause) return undefined;
  const invalid = run.services.gen.invalidItems;
  const valid = op.kind === 'batchCreate'
    ? Array.isArray(body) && body.length > 0 && body.every((i) => typeof i === 'object' && i !== null && !invalid.has(i))
    : typeof body === 'object' && body !== null && !Array.isArray(body) && !invalid.has(body);
  return valid ? clause : undefined;
}

/** What a control changes of its probe, for messages. */
function describeControl(control: ControlDef): string {
  const parts = [
    control.auth ? `with ${control.auth === 'default' ? "the run's bearer token" : `auth ${control.auth}`}` : '',
    control.repair ? 'with the invalid items as they were before they were spoiled' : '',
    control.body !== undefined || control.rawBody !== undefined ? 'with a well-formed, valid body' : '',
    control.params !== undefined ? 'naming a record the run created' : '',
    control.query !== undefined ? 'with another query' : '',
  ].filter(Boolean);
  return parts.join(' and ') || 'as sent';
}
