// Runs one case: its steps in order, each judged by its expectations and the global checks, into a CaseResult.
// The runner knows nothing of mocha or of output formats.
import { allChecks, getCheck, type CheckContext, type Judgement } from '../checks/index.js';
import { sameValue } from '../checks/records.js';
import { batchVariant } from '../checks/batch.js';
import { endMarker } from '../checks/lists.js';
import { bodyObject, outcomeOf } from '../checks/registry.js';
import { clause as clauseOf, interpretation, operation as operationOf, operations, resourceInfo, schemaErrors, SCHEMA_BASE, type Operation } from '../spec/index.js';
import type { Profile } from '../config/profile.js';
import type { HttpClient, OutgoingRequest } from '../http/client.js';
import type { TokenProvider } from '../http/auth.js';
import type { Secrets } from '../http/redact.js';
import type { CaseDef, ControlDef, ExpectDef, StepDef } from './suite.js';
import { readPath } from '../core/paths.js';
import { TemplateError, resolve, type GenerationContext, type Vars } from './template.js';
import { verdictOf, type Assertion, type CaseResult, type Exchange, type Observation, type ResidueEntry, type Unlock } from '../core/results.js';
import { aRecord, describeKey, idSourceKey, idSourceUnlock, idValue, isIdSourceResource, matchesKey, type IdSourceSet, type RecordKey } from './id-sources.js';
import { notRunBecause, unlockOf } from '../core/verdict.js';
import { ThrottledAnswers } from './throttled.js';

export interface RunnerDeps {
  profile: Profile;
  baseUrl: string;
  http: HttpClient;
  tokens: TokenProvider;
  /** Gets a token that has expired, or says why none can be had. */
  expiredToken: () => Promise<string | { unavailable: string }>;
  secrets: Secrets;
  gen: GenerationContext;
  /** The run's client credentials, for token cases (${credentials.clientId}); redacted from everything recorded. */
  credentials: { clientId: string; clientSecret: string };
  /** Where the {id} of a created record is learned when no answer shows it, per resource the profile names (idSources). */
  ids?: IdSourceSet;
}

/** Values a step could not capture, by variable name: why, and what would unlock the cases that need them. */
type Missing = Map<string, { why: string; unlock?: Unlock }>;

/** Ends a case early with a verdict other than its assertions' (skip or error); a skip says what would unlock it. */
class Stop extends Error {
  constructor(readonly verdict: 'skip' | 'error', readonly reason: string, readonly unlock?: Unlock) {
    super(reason);
  }
}

const UNLOCK = {
  irreversible: { unlock: '--allow-irreversible', how: 'run with --allow-irreversible (or allowIrreversible: true in the profile) against a target whose users may be replaced' },
  fixtures: { unlock: 'fixtures.atsJobOfferIds', how: 'give the {id} of an existing ATS job offer in the profile (fixtures.atsJobOfferIds)' },
  expiredToken: { unlock: 'fixtures.expiredToken', how: 'give an access token that has expired in the profile (fixtures.expiredToken, as ${env:…})' },
} satisfies Record<string, Unlock>;

/** What unlocks a case whose open-point precondition did not hold (the implementation chose another reading). */
const INTERPRETATION_UNLOCK: Record<string, Unlock> = { ATS_JOB_OFFER_ID: idSourceUnlock('job-offer') };

/**
 * The clause a setup step's plain outcome expectation judges: a valid write the spec says the service accepts.
 * Reads are left out: what they address may rest on an open point (ATS_JOB_OFFER_ID, the list encoding).
 */
const SETUP_CLAUSE: Partial<Record<Operation['kind'], string>> = {
  batchCreate: 'BATCH.ACCEPTS_ARRAY',
  replace: 'WRITE.READ_BACK',
  patch: 'WRITE.PATCH_PARTIAL',
};

const DEFAULT_MAX_PAGES = 1000;

/**
 * Memory bounds against a target that answers huge or object-heavy bodies (each is already capped by
 * maxResponseBytes), in bytes as parsed (parsedWeight: 60 KB of empty objects take 1.3 MB parsed): a walk stops, as
 * an error, once its pages pass WALK_BYTES; once a step is judged, the report keeps a body parsed and whole only
 * while the run has kept under KEPT_BYTES in all and the body is under KEPT_ONE, else its text, cut to its first
 * KEPT_CUT characters when longer. A full run against the simulator keeps about 1 MiB, so none of this touches a
 * normal report.
 */
const WALK_BYTES = 64 * 1024 * 1024;
const KEPT_BYTES = 16 * 1024 * 1024;
const KEPT_ONE = 1024 * 1024;
const KEPT_CUT = 8 * 1024;
/** The longest the runner works without letting timers and signals (the deadline, SIGINT) be heard. */
const SLICE_MS = 20;

export class Runner {
  readonly results = new Map<string, CaseResult>();
  readonly ledger: ResidueEntry[] = [];
  /** Bytes (as parsed) of response bodies kept whole so far (KEPT_BYTES). */
  private kept = 0;

  private readonly throttled: ThrottledAnswers;

  /** Endpoints whose failing throttled answer the current case reports (unreported again if the case goes unjudged). */
  private readonly throttledFailures = new Set<string>();

  constructor(private readonly deps: RunnerDeps) {
    this.throttled = new ThrottledAnswers(deps.profile.declared, deps.gen.invalidItems);
  }

  async runCase(c: CaseDef): Promise<CaseResult> {
    const started = performance.now();
    const result: CaseResult = {
      id: c.id, title: c.title, level: c.level, clauses: c.clauses, endpoints: c.endpoints, tags: c.tags, tier: c.tier,
      file: `${c.file}:${c.line}`, verdict: 'pass', assertions: [], observations: [], exchanges: [], durationMs: 0,
    };
    const missing: Missing = new Map();
    this.throttledFailures.clear();
    try {
      this.checkPreconditions(c);
      const vars: Vars = {
        run: { tag: this.deps.gen.runTag }, credentials: this.deps.credentials, declared: this.deps.profile.declared,
        fixtures: { atsJobOfferIds: this.deps.profile.fixtures.atsJobOfferIds ?? [] },
      };
      for (const [name, value] of Object.entries(c.vars ?? {})) vars[name] = this.resolveValue(value, vars, missing);
      try {
        const controls: PendingControl[] = [];
        let completed = true;
        for (const step of c.steps.filter((s) => !s.cleanup)) {
          const ok = await this.runStep(c, step, vars, result, missing, controls);
          // Judged: its pages are masked and cut now, not held parsed to the end of the case.
          await this.store(result);
          if (!ok) {
            completed = false;
            break;
          }
        }
        // A probe that was not refused has failed already: its control has nothing left to prove.
        if (completed) for (const pending of controls) await this.runControl(c, pending, vars, result, missing);
      } finally {
        await this.cleanUp(c, vars, result, missing);
      }
      result.verdict = verdictOf(c.level, result.assertions);
    } catch (error) {
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
    if (result.verdict === 'skip' || result.verdict === 'error') this.throttled.unreport(this.throttledFailures);
    await this.store(result);
    if (result.reason) result.reason = this.deps.secrets.scrub(result.reason);
    result.assertions = result.assertions.map((a) => ({ ...a, message: this.deps.secrets.scrub(a.message) }));
    result.durationMs = Math.round(performance.now() - started);
    this.results.set(c.id, result);
    return result;
  }

  /** Runs the case's cleanup steps whatever happened before; they are never judged and never fail the case. */
  private async cleanUp(c: CaseDef, vars: Vars, result: CaseResult, missing: Missing): Promise<void> {
    for (const step of c.steps.filter((s) => s.cleanup)) {
      try {
        const op = step.operation ? operationOf(step.operation) : undefined;
        const body = step.body === undefined ? undefined : this.resolveValue(step.body, vars, missing);
        const request = await this.buildRequest(step, op, vars, body, missing);
        const ex = await this.send(step, request, result, `cleanup: ${step.name}`);
        if (op) this.recordResidue(c, op, ex, body, request);
      } catch {
        // Nothing to clean (what it names was never created), or no answer: the residue ledger keeps the record.
      }
    }
  }

  private checkPreconditions(c: CaseDef): void {
    for (const id of c.requires) {
      const r = this.results.get(id);
      if (!r) throw new Stop('skip', `prerequisite ${id} did not run`, { unlock: 'without --bail', how: `run ${id} too` });
      // The prerequisite carries the failure; this case says once what it waits for.
      if (r.verdict === 'fail' || r.verdict === 'error') {
        const what = r.verdict === 'fail' ? 'failed' : 'errored';
        throw new Stop('skip', notRunBecause(id, what), { unlock: `fix ${id}`, how: `${id} ${what}: once it passes, this case runs` });
      }
      if (r.verdict === 'skip') throw new Stop('skip', `not run because ${id} was skipped${r.reason ? `: ${r.reason}` : ''}`, unlockOf(r));
    }
    const { profile } = this.deps;
    if (c.when?.atsJobOfferId && profile.declared['atsJobOfferId'] === 'fixtures' && !this.deps.ids?.has('job-offer')) {
      throw new Stop('skip', `the profile declares atsJobOfferId: fixtures and gives no ${idSourceKey('job-offer')}, so a job offer created by the run cannot be addressed by {id}`, idSourceUnlock('job-offer'));
    }
    if (c.when?.atsJobOfferFixtures && !profile.fixtures.atsJobOfferIds?.length) {
      throw new Stop('skip', 'no fixtures.atsJobOfferIds in the profile: give the {id} of an existing ATS job offer to read it', UNLOCK.fixtures);
    }
    if (c.tier === 'irreversible' && !profile.allowIrreversible) {
      throw new Stop('skip', 'irreversible (it replaces or removes data it cannot restore): runs only with --allow-irreversible', UNLOCK.irreversible);
    }
  }

  private resolveValue(value: unknown, vars: Vars, missing: Missing): unknown {
    try {
      return resolve(value, vars, this.deps.gen);
    } catch (error) {
      if (error instanceof TemplateError) {
        const gone = [...missing].find(([k]) => error.message.includes(`\${${k}`))?.[1];
        if (gone) throw new Stop('skip', gone.why, gone.unlock ?? { unlock: 'an answer that gives it', how: `${gone.why}; the spec leaves this open, so nothing in the profile unlocks it` });
        throw new Stop('error', `suite error: ${error.message}`);
      }
      throw error;
    }
  }

  /** Runs a step; returns false when the case must stop (a failed expectation). */
  private async runStep(c: CaseDef, step: StepDef, vars: Vars, result: CaseResult, missing: Missing, controls: PendingControl[] = []): Promise<boolean> {
    const op = step.operation ? operationOf(step.operation) : undefined;
    await this.learnJobOfferIds(step, vars, missing);
    const body = step.body === undefined ? undefined : this.resolveValue(step.body, vars, missing);
    const setup = step.setup === true;
    // The steps of an OBSERVE case ask a question: what they expect are its preconditions, never a verdict.
    const precondition = !setup && c.level === 'OBSERVE';
    const outcomeClause = setup ? this.setupClause(step, op, body) : undefined;
    // A step with tryListEncodings sends its request once per list encoding (REFERENCE_LIST_ENCODING) until one
    // meets its expectations; every other step makes one attempt.
    const attempts: Attempt[] = [];
    for (const encoding of this.listEncodings(step, vars, missing)) {
      const request = await this.buildRequest(step, op, vars, body, missing, encoding);
      const first = await this.send(step, request, result);
      const stepExchanges = [first];
      if (step.paginate && !first.transportError) stepExchanges.push(...(await this.walk(step, first, result)));
      const broken = stepExchanges.find((e) => e.transportError);
      if (broken) {
        throw new Stop('error', `step "${step.name}": no answer from ${broken.request.method} ${this.deps.secrets.scrubUrl(broken.request.url)}: ${broken.transportError?.message}`);
      }
      const index = result.exchanges.indexOf(first);
      const judgements: Attempt['judgements'] = [];
      for (const e of [step.expect ?? []].flat()) {
        const block = this.expectation(c, e, first, stepExchanges, op, body, vars, missing, setup, outcomeClause);
        // In a setup step, an answer that is not the success the block needs as its precondition (a record the run
        // cannot address under another reading of an open point) gives the block's checks nothing to judge.
        const unmet = setup && block.some((j) => j.check === 'expect.outcome' && j.clause === '' && !j.passed);
        for (const j of unmet ? block.filter((x) => x.check === 'expect.outcome') : block) judgements.push({ ...j, exchange: index });
      }
      attempts.push({ encoding, request, first, stepExchanges, judgements });
      if (judgements.every((j) => j.passed)) break;
    }
    const { encoding: listEncoding, request, first, stepExchanges, judgements } = this.chooseAttempt(step, attempts);
    const index = result.exchanges.indexOf(first);
    if (!setup && !precondition) {
      for (const ex of stepExchanges) {
        const ctx = this.context(ex, stepExchanges, op, body, {});
        for (const check of allChecks().filter((k) => k.global && k.appliesTo?.(ctx))) {
          for (const j of check.run(ctx)) judgements.push({ ...j, check: check.id, exchange: result.exchanges.indexOf(ex) });
        }
      }
    }
    if (setup || precondition) {
      const failed = judgements.filter((j) => !j.passed);
      // A setup step is judged like any other: a MUST clause it breaks (a valid create refused, created records
      // missing from data) fails the case, and is its reported cause. Only a precondition that rests on no MUST
      // clause (an open point read otherwise, an answer shape the spec allows) may turn the case into a skip.
      const broke = setup ? failed.filter((j) => levelOf(j.clause) === 'MUST') : [];
      if (broke.length) {
        for (const j of broke) result.assertions.push({ ...this.assertion(j), message: `setup step "${step.name}": ${j.message}` });
        return false;
      }
      const first = failed[0];
      if (first) {
        const why = `${setup ? 'setup ' : ''}step "${step.name}" did not go as needed (${first.clause ? `${first.clause}: ` : ''}${first.message})`;
        const unlock = (precondition ? INTERPRETATION_UNLOCK[c.clauses[0] ?? ''] : undefined)
          ?? { unlock: 'an answer the case can build on', how: `${why}; the spec allows this answer, so the case cannot go on` };
        throw new Stop('skip', why, unlock);
      }
    } else {
      for (const j of judgements) result.assertions.push(this.assertion(j));
    }

    for (const [name, path] of Object.entries(step.capture ?? {})) {
      const created = /^\$created\.(\d+)\.id$/.exec(path);
      const got = created ? await this.createdId(step, op, body, Number(created[1]), first, result)
        : { value: path === '$listEncoding' ? listEncoding : this.extract(path, first, stepExchanges, body) };
      if ('why' in got) {
        delete vars[name];
        missing.set(name, { why: got.why, ...(got.unlock ? { unlock: got.unlock } : {}) });
      } else if (got.value === undefined) {
        delete vars[name];
        missing.set(name, { why: `step "${step.name}" gave no ${path} to go on with (captured as ${name})` });
      } else vars[name] = got.value;
    }
    for (const [key, how] of Object.entries(step.observe ?? {})) {
      const value = how === '$listEncoding' ? listEncoding : this.observedValue(how, first, stepExchanges, body, vars, missing);
      result.observations.push(...this.observe(c, key, value, result, index));
    }
    if (op) this.recordResidue(c, op, first, body, request);
    const passed = !judgements.some((j) => !j.passed);
    if (passed && step.control !== undefined) controls.push({ step, op, body });
    return passed;
  }

  /**
   * Sends the control of a negative probe: the probe's request with the one difference under test removed. It must
   * succeed, or the refusal proved nothing: a valid write refused fails the clause a valid write rests on (as in a
   * setup step), and any other refused control skips the case, saying so.
   */
  private async runControl(c: CaseDef, pending: PendingControl, vars: Vars, result: CaseResult, missing: Missing): Promise<void> {
    const { step, op } = pending;
    const given = (typeof step.control === 'string' ? this.resolveValue(step.control, vars, missing) : step.control) as ControlDef;
    const { repair, body: replaced, ...fields } = given;
    const control: StepDef = { ...step, ...fields, name: `control of ${step.name}` };
    delete control.control;
    let body = pending.body;
    if (replaced !== undefined) body = this.resolveValue(replaced, vars, missing);
    else if (repair) body = this.repaired(body);
    if (replaced !== undefined || repair) delete control.rawBody;
    if (fields.rawBody !== undefined) body = undefined;
    await this.learnJobOfferIds(control, vars, missing);
    const request = await this.buildRequest(control, op, vars, body, missing);
    const ex = await this.send(control, request, result, `control: ${step.name}`);
    if (ex.transportError) throw new Stop('error', `control of step "${step.name}": no answer: ${ex.transportError.message}`);
    if (op) this.recordResidue(c, op, ex, body, request);
    const index = result.exchanges.indexOf(ex);
    const status = ex.response?.status;
    const what = describeControl(given);
    if (outcomeOf(ex) === 'success') {
      const clause = c.clauses.find((id) => levelOf(id) !== undefined);
      if (clause) result.assertions.push({ clause, level: levelOf(clause) as 'MUST' | 'SHOULD', passed: true, check: 'control', exchange: index,
        message: `control: the same request ${what} succeeded with ${status}, so the refusal of "${step.name}" was for the difference under test` });
      return;
    }
    const clause = this.setupClause(control, op, body);
    if (clause && levelOf(clause) === 'MUST') {
      result.assertions.push({ clause, level: 'MUST', passed: false, check: 'control', exchange: index,
        message: `control of "${step.name}": the same request ${what}, a valid write, was refused with ${status}: ${describeBody(ex)}` });
      return;
    }
    const why = `the control of step "${step.name}" (the same request ${what}) was refused too, with ${status}: ${describeBody(ex)}; so the probe's refusal proves nothing`;
    throw new Stop('skip', why, { unlock: 'a control that succeeds', how: `${why}. Make the control request succeed (e.g. the record it names must exist and be writable)` });
  }

  /** The body with every $invalid item as it was before it was spoiled. */
  private repaired(body: unknown): unknown {
    const fix = (item: unknown): unknown => (item && typeof item === 'object' ? this.deps.gen.repaired.get(item) ?? item : item);
    return Array.isArray(body) ? body.map(fix) : fix(body);
  }

  /** The clause a setup step's outcome expectation judges: a valid write the spec says succeeds (SETUP_CLAUSE). */
  private setupClause(step: StepDef, op: Operation | undefined, body: unknown): string | undefined {
    if (!op || step.rawBody !== undefined || (step.auth ?? 'default') !== 'default' || step.headers || step.contentType) return undefined;
    const clause = SETUP_CLAUSE[op.kind];
    if (!clause) return undefined;
    const invalid = this.deps.gen.invalidItems;
    const valid = op.kind === 'batchCreate'
      ? Array.isArray(body) && body.length > 0 && body.every((i) => typeof i === 'object' && i !== null && !invalid.has(i))
      : typeof body === 'object' && body !== null && !Array.isArray(body) && !invalid.has(body);
    return valid ? clause : undefined;
  }

  /** Learns the {id} of every ATS job offer the step addresses ({$jobOfferId: reference}) from the profile's id source. */
  private async learnJobOfferIds(step: StepDef, vars: Vars, missing: Missing): Promise<void> {
    const ids = this.deps.ids;
    if (!ids?.has('job-offer')) return;
    const references: unknown[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        if ('$jobOfferId' in value) references.push(this.resolveValue((value as Record<string, unknown>)['$jobOfferId'], vars, missing));
        else Object.values(value).forEach(walk);
      }
    };
    walk([step.params, step.query, step.body, step.headers]);
    // Only what the run created has an id to learn; a reference it made up (an unknown job offer) is sent as it is.
    const created = (reference: string): boolean => this.ledger.some((e) => e.resource === 'job-offer' && e.reference === reference);
    for (const reference of references.map(String).filter(created)) {
      const got = await ids.learn('job-offer', { reference });
      if ('problem' in got) throw new Stop('skip', this.deps.secrets.scrub(got.problem), this.scrubbed(got.unlock));
    }
  }

  private scrubbed(unlock: Unlock): Unlock {
    return { unlock: unlock.unlock, how: this.deps.secrets.scrub(unlock.how) };
  }

  /**
   * The {id} of the record a batch create made from body item n (capture `$created.n.id`), found where the
   * implementation shows it (RECORD_ID): where the resource has a list, the listing filtered by the item's key (the
   * id as the service stores it, whichever batch variant answered); else the answer's data (the record with the
   * item's key, else the n-th); else the profile's id source for the resource (idSources). Else why none was found,
   * and the id source that would tell it.
   */
  private async createdId(step: StepDef, op: Operation | undefined, body: unknown, n: number, answer: Exchange, result: CaseResult):
    Promise<{ value: unknown } | { why: string; unlock?: Unlock }> {
    const item = Array.isArray(body) ? (body[n] as Record<string, unknown> | undefined) : undefined;
    if (op?.kind !== 'batchCreate' || !item || typeof item !== 'object') {
      throw new Stop('error', `suite error: step "${step.name}": $created.${n}.id needs a batch create whose body has an item ${n}`);
    }
    const data = bodyObject(answer)?.['data'];
    const records = Array.isArray(data) ? data : [];
    const key = this.keyOf(op.resource, item);
    const fromData = readPath(records.find((r) => matchesKey(r, key)) ?? records[n], 'id');
    if (!isIdSourceResource(op.resource)) return { value: fromData };
    const resource = op.resource;
    const list = operations().find((o) => o.resource === resource && o.kind === 'list');
    let listed = '';
    if (list) {
      const found = await this.findByListing(step, list, key, result);
      if (found.id !== undefined) {
        // Where the answer shows ids as well, each must name the record made from its own item.
        if (idValue(fromData) !== undefined) {
          const passed = String(fromData) === String(found.id);
          result.assertions.push(this.assertion({
            clause: 'WRITE.READ_BACK', check: 'created-ids', exchange: result.exchanges.indexOf(answer), passed,
            message: passed ? `the answer's id for item ${n} is the id its record is listed under`
              : `the answer gave item ${n} (${describeKey(key)}) the id ${JSON.stringify(fromData)}, but its record is listed under ${JSON.stringify(found.id)}`,
          }));
        }
        return { value: found.id };
      }
      listed = found.why;
    }
    if (fromData !== undefined) return { value: fromData };
    const ids = this.deps.ids;
    if (ids?.has(resource)) {
      const got = await ids.learn(resource, key);
      if ('id' in got) return { value: /^\d+$/.test(got.id) && Number.isSafeInteger(Number(got.id)) ? Number(got.id) : got.id };
      return { why: this.deps.secrets.scrub(got.problem), unlock: this.scrubbed(got.unlock) };
    }
    return {
      why: `step "${step.name}" created ${aRecord(resource)} (${describeKey(key)}) and nothing showed its id: ${records.length ? 'the answer\'s data gave none for it' : 'the answer has no data'}${listed ? `, ${listed}` : ''}, and the profile gives no ${idSourceKey(resource)}`,
      unlock: idSourceUnlock(resource),
    };
  }

  /** A create item's key: the fields that name the record it creates (spec/schemas x-rdx-id-key). */
  private keyOf(resource: string, item: Record<string, unknown>): RecordKey {
    return Object.fromEntries(resourceInfo(resource).idKey.map((f) => [f, String(item[f] ?? '')]));
  }

  /** The id of the one listed record with the key, asking the list filtered by the key fields it takes. */
  private async findByListing(step: StepDef, list: Operation, key: RecordKey, result: CaseResult): Promise<{ id?: unknown; why: string }> {
    const url = new URL(this.deps.baseUrl.replace(/\/$/, '') + list.path);
    const filters = Object.entries(key).filter(([field]) => list.query.includes(field));
    for (const [field, value] of filters) url.searchParams.append(field, value);
    const what = `GET ${list.path}${filters.length ? ` filtered by ${filters.map(([f]) => f).join(' and ')}` : ''}`;
    const label = `find the id of what "${step.name}" created`;
    const first = await this.send({ ...step, name: label, auth: 'default' }, { method: 'GET', url: url.toString(), headers: { accept: 'application/json', authorization: `Bearer ${await this.token()}` } }, result);
    if (first.transportError || outcomeOf(first) !== 'success') return { why: `${what} gave no list (status ${first.response?.status ?? 'none'})` };
    const pages = [first, ...(await this.walk({ ...step, name: label, paginate: { maxPages: 10 } }, first, result))];
    const ids = new Set(pages.flatMap((e) => (Array.isArray(bodyObject(e)?.['data']) ? (bodyObject(e)?.['data'] as unknown[]) : []))
      .filter((r) => matchesKey(r, key)).map((r) => readPath(r, 'id')).filter((id) => idValue(id) !== undefined));
    if (ids.size === 1) return { id: [...ids][0], why: '' };
    return { why: `${what} listed ${ids.size === 0 ? 'no record with its id' : `${ids.size} records with its key`}` };
  }

  /** The list encodings a step's request is sent with: the declared one, else all of LIST_ENCODINGS when the step tries them. */
  private listEncodings(step: StepDef, vars: Vars, missing: Missing): (ListEncoding | undefined)[] {
    const declared = this.deps.profile.declared['referenceListEncoding'];
    if (step.listEncoding !== undefined) {
      const chosen = String(this.resolveValue(step.listEncoding, vars, missing));
      if (!isListEncoding(chosen)) throw new Stop('error', `suite error: step "${step.name}": listEncoding ${chosen} is none of ${LIST_ENCODINGS.join(', ')}`);
      return [chosen];
    }
    if (isListEncoding(declared)) return [declared];
    return step.tryListEncodings ? [...LIST_ENCODINGS] : [undefined];
  }

  /**
   * The attempt a step is judged by: the first that met every expectation; else the first with a conclusive failure
   * (a judgement not marked inconclusive). When every attempt of a tryListEncodings step failed only inconclusively
   * (no encoding was understood), the step cannot be judged, and the case is skipped saying what each answered.
   */
  private chooseAttempt(step: StepDef, attempts: Attempt[]): Attempt {
    const passed = attempts.find((a) => a.judgements.every((j) => j.passed));
    if (passed) return passed;
    const conclusive = attempts.find((a) => a.judgements.some((j) => !j.passed && !j.inconclusive));
    if (conclusive || !step.tryListEncodings) return conclusive ?? (attempts[0] as Attempt);
    const tried = attempts.map((a) => `${a.encoding ?? 'repeat'}: ${a.judgements.find((j) => !j.passed)?.message ?? '?'}`).join('; ');
    throw new Stop('skip', `step "${step.name}": no list encoding tried was understood (${tried}); declare referenceListEncoding in the profile to judge it`,
      { unlock: 'declared.referenceListEncoding', how: 'declare how the implementation encodes a list of references in a query (referenceListEncoding in the profile)' });
  }

  private assertion(j: Judgement & { check: string; exchange: number }): Assertion {
    return { clause: j.clause, level: clauseOf(j.clause).level, passed: j.passed, message: j.message, check: j.check, exchange: j.exchange };
  }

  private context(ex: Exchange, stepExchanges: Exchange[], op: Operation | undefined, body: unknown, args: Record<string, unknown>): CheckContext {
    return { exchange: ex, stepExchanges, ...(op ? { operation: op } : {}), requestBody: body, invalidItems: this.deps.gen.invalidItems, args, declared: this.deps.profile.declared };
  }

  /**
   * Judges one expect block. In a setup step an expectation judges a clause only when one is known: given with
   * `clause:`, a check's own, or, for `outcome: success`, the valid write's (outcomeClause); otherwise its clause is
   * "" and it is a precondition.
   */
  private expectation(c: CaseDef, e: ExpectDef, ex: Exchange, stepExchanges: Exchange[], op: Operation | undefined, body: unknown,
    vars: Vars, missing: Missing, setup = false, outcomeClause?: string): (Judgement & { check: string })[] {
    const clause = e.clause ?? (setup ? '' : c.clauses[0] ?? 'HTTP.STATUS_MATCHES_BODY');
    const status = ex.response?.status ?? 0;
    const out: (Judgement & { check: string })[] = [];
    const add = (check: string, passed: boolean, message: string, judged = clause): void => {
      out.push({ clause: judged, passed, message, check });
    };
    // The body says what happened (an error body is a refusal whatever the status); the status only where it is silent.
    const outcome = outcomeOf(ex);
    if (e.outcome === 'success') {
      add('expect.outcome', outcome === 'success', outcome === 'success' ? `accepted with ${status}` : `expected success, got status ${status}: ${describeBody(ex)} (${describeOutcome(ex)})`,
        e.clause ?? (setup ? outcomeClause ?? '' : clause));
    }
    if (e.outcome === 'failure') add('expect.outcome', outcome === 'failure', outcome === 'failure' ? `refused with ${status}` : `expected a failure, got status ${status} with ${describeOutcome(ex)}`);
    if (e.status !== undefined) {
      const wanted = [e.status].flat();
      const ok = wanted.some((w) => (typeof w === 'number' ? w === status : String(status)[0] === w[0]));
      add('expect.status', ok, ok ? `status ${status}` : `expected status ${wanted.join(' or ')}, got ${status}`);
    }
    if (e.body) {
      const uri = e.body === 'token' ? `${SCHEMA_BASE}token.json#/$defs/response` : `${SCHEMA_BASE}envelope.json#/$defs/${e.body}`;
      const errors = ex.response?.json === undefined ? [`the body is not JSON`] : schemaErrors(uri, ex.response.json);
      add('expect.body', errors.length === 0, errors.length ? `body is not ${/^[aeiou]/.test(e.body) ? 'an' : 'a'} ${e.body} body: ${errors.slice(0, 4).join('; ')}` : `${e.body} body`);
    }
    for (const [path, expectedRaw] of Object.entries(e.equals ?? {})) {
      const expected = this.resolveValue(expectedRaw, vars, missing);
      const actual = this.extract(path, ex, stepExchanges, body);
      add('expect.equals', sameValue(expected, actual, true), `${path} is ${JSON.stringify(actual)}${sameValue(expected, actual, true) ? '' : `, expected ${JSON.stringify(expected)}`}`);
    }
    for (const [path, n] of Object.entries(e.length ?? {})) {
      const actual = this.extract(path, ex, stepExchanges, body);
      const len = Array.isArray(actual) ? actual.length : undefined;
      add('expect.length', len === n, `${path} has ${len === undefined ? 'no list' : `${len} item(s)`}${len === n ? '' : `, expected ${n}`}`);
    }
    for (const spec of e.checks ?? []) {
      const id = typeof spec === 'string' ? spec : spec.id;
      const check = getCheck(id);
      if (!check) throw new Stop('error', `suite error: unknown check ${id}`);
      const args = typeof spec === 'string' ? {} : (this.resolveValue(spec.with ?? {}, vars, missing) as Record<string, unknown>);
      if (typeof spec !== 'string' && spec.clause) args['clause'] = spec.clause;
      for (const j of check.run(this.context(ex, stepExchanges, op, body, args))) out.push({ ...j, check: id });
    }
    return out;
  }

  /** Reads a capture/observe path: $status, $headers.x, $records, $variant, $endMarker, $pageSize, $linkForm, $pages, $request.x, or a body path. */
  private extract(path: string, ex: Exchange, stepExchanges: Exchange[], body: unknown): unknown {
    const [head = '', ...rest] = path.split('.');
    const tail = rest.join('.');
    switch (head) {
      case '$status': return ex.response?.status;
      case '$outcome': return outcomeOf(ex);
      case '$headers': return ex.response?.headers[tail.toLowerCase()];
      case '$request': return readPath({ body }, tail);
      case '$records': return readPath(stepExchanges.flatMap((e) => (Array.isArray(bodyObject(e)?.['data']) ? (bodyObject(e)?.['data'] as unknown[]) : [])), tail);
      case '$pages': return stepExchanges.length;
      case '$variant': { const v = batchVariant(ex); return 'variant' in v ? v.variant : 'none'; }
      case '$endMarker': { const last = stepExchanges[stepExchanges.length - 1]; return last ? endMarker(last) ?? 'none' : undefined; }
      case '$pageSize': {
        const sizes = stepExchanges.map((e) => (Array.isArray(bodyObject(e)?.['data']) ? (bodyObject(e)?.['data'] as unknown[]).length : 0)).filter((n) => n > 0);
        return sizes.length >= 2 ? Math.max(...sizes) : undefined;
      }
      case '$linkForm': {
        const link = readPath(ex.response?.json, 'meta.next_link');
        if (typeof link !== 'string' || link === '') return 'none';
        return /^[a-z]+:\/\//i.test(link) ? 'absolute' : 'relative';
      }
      case '$body': return readPath(ex.response?.json, tail);
      default: return readPath(ex.response?.json, path);
    }
  }

  /**
   * An observed value: a path, or { from: path, includes?: v, equals?: v, map?: {raw: value}, otherwise?: value } to
   * turn a raw fact into the register's vocabulary (e.g. "was the record on the bound returned" → true/false).
   * `includes` and `equals` may be templates (${offer.reference}).
   */
  private observedValue(how: unknown, ex: Exchange, stepExchanges: Exchange[], body: unknown, vars: Vars, missing: Missing): unknown {
    if (typeof how === 'string') return this.extract(how, ex, stepExchanges, body);
    const spec = (how ?? {}) as { from?: string; includes?: unknown; equals?: unknown; map?: Record<string, unknown>; otherwise?: unknown };
    let value = this.extract(String(spec.from ?? '$status'), ex, stepExchanges, body);
    if ('includes' in spec) {
      const wanted = JSON.stringify(this.resolveValue(spec.includes, vars, missing));
      value = Array.isArray(value) && value.some((v) => JSON.stringify(v) === wanted);
    }
    if ('equals' in spec) value = sameValue(this.resolveValue(spec.equals, vars, missing), value);
    if (spec.map) value = String(value) in spec.map ? spec.map[String(value)] : ('otherwise' in spec ? spec.otherwise : value);
    return value;
  }

  private observe(c: CaseDef, key: string, value: unknown, result: CaseResult, exchange: number): Observation[] {
    const [id = key, sub] = key.split('.');
    const entry = interpretation(id);
    const obs: Observation = { interpretation: id, ...(sub ? { key: sub } : {}), value, caseId: c.id };
    const whole = entry.key ? this.deps.profile.declared[entry.key] : undefined;
    // A declared map (e.g. statusCodes) is compared key by key; a declared scalar with the plain observation.
    const declared = sub ? (whole && typeof whole === 'object' ? (whole as Record<string, unknown>)[sub] : undefined) : whole;
    if (declared !== undefined && value !== undefined) {
      const same = String(declared) === String(value);
      result.assertions.push({
        clause: 'PROFILE.DECLARED_MATCHES', level: 'SHOULD', passed: same, check: 'declared-matches', exchange,
        message: same ? `${entry.key}${sub ? `.${sub}` : ''}: declared ${JSON.stringify(declared)}, observed the same`
          : `${entry.key}${sub ? `.${sub}` : ''}: the profile declares ${JSON.stringify(declared)} but the implementation did ${JSON.stringify(value)}`,
      });
    }
    return [obs];
  }

  private async buildRequest(step: StepDef, op: Operation | undefined, vars: Vars, body: unknown, missing: Missing,
    encoding?: ListEncoding): Promise<OutgoingRequest> {
    const params = (this.resolveValue(step.params ?? {}, vars, missing) ?? {}) as Record<string, unknown>;
    const template = op?.path ?? step.path ?? '/';
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new Stop('error', `suite error: step "${step.name}" gives no value for {${name}}`);
      return encodeURIComponent(String(params[name]));
    });
    const url = new URL(this.deps.baseUrl.replace(/\/$/, '') + path);
    const query = (this.resolveValue(step.query ?? {}, vars, missing) ?? {}) as Record<string, unknown>;
    const declared = this.deps.profile.declared['referenceListEncoding'];
    const lists = encoding ?? (isListEncoding(declared) ? declared : 'repeat');
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) appendList(url.searchParams, name, value.map(String), lists);
      else if (value !== undefined && value !== null) url.searchParams.append(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = step.auth ?? (op?.endpoint === 1 ? 'none' : 'default');
    if (auth === 'default') headers['authorization'] = `Bearer ${await this.token()}`;
    if (auth === 'header') headers['authorization'] = String(this.resolveValue(step.authHeader ?? '', { ...vars, token: await this.token() }, missing));
    if (auth === 'query') url.searchParams.append('access_token', await this.token());
    if (auth === 'expired') {
      const expired = await this.deps.expiredToken();
      if (typeof expired !== 'string') throw new Stop('skip', expired.unavailable, UNLOCK.expiredToken);
      headers['authorization'] = `Bearer ${expired}`;
    }
    let text: string | undefined;
    if (step.rawBody !== undefined) text = String(this.resolveValue(step.rawBody, vars, missing));
    else if (body !== undefined) text = JSON.stringify(body);
    if (text !== undefined) headers['content-type'] = step.contentType ?? 'application/json';
    Object.assign(headers, this.resolveValue(step.headers ?? {}, vars, missing) as Record<string, string>);
    return { method: op?.method ?? step.method ?? 'GET', url: url.toString(), headers, auth, ...(text !== undefined ? { body: text } : {}) };
  }

  private async token(): Promise<string> {
    try {
      return await this.deps.tokens.token();
    } catch (error) {
      throw new Stop('error', `no token: ${(error as Error).message}`);
    }
  }

  /** Sends and records; a 401 on the run's own token is retried once with a fresh token (it may have been revoked). */
  private async send(step: StepDef, request: OutgoingRequest, result: CaseResult, label = step.name): Promise<Exchange> {
    let ex = await this.deps.http.send(label, request);
    const usedRunToken = (step.auth ?? 'default') === 'default' && request.headers?.['authorization'];
    if (ex.response?.status === 401 && usedRunToken && step.operation !== 'requestToken') {
      this.deps.tokens.invalidate();
      const retried = { ...request, headers: { ...request.headers, authorization: `Bearer ${await this.token()}` } };
      ex = await this.deps.http.send(label, retried);
    }
    this.recordThrottled(result);
    result.exchanges.push(ex);
    return ex;
  }

  /** Adds the throttled answers met since the last request (token requests included) to the case, judged once per endpoint. */
  private recordThrottled(result: CaseResult): void {
    for (const { endpoint, exchange, judgements } of this.throttled.judge(this.deps.http.takeThrottled())) {
      if (judgements.some((j) => !j.passed)) this.throttledFailures.add(endpoint);
      const index = result.exchanges.push({ ...exchange, step: `${exchange.step} (throttled, sent again)` }) - 1;
      for (const j of judgements) result.assertions.push(this.assertion({ ...j, exchange: index }));
    }
  }

  /** Exchanges of the case not yet masked and budgeted (store). */
  private readonly unstored = new WeakMap<CaseResult, number>();

  /**
   * Masks and budgets, in place, the exchanges recorded since the last call: in slices that yield to the event loop,
   * so that masking a long walk never keeps a stop (deadline, signal) from being heard. Once the run is stopped, what
   * is left is kept without its bodies, masked.
   */
  private async store(result: CaseResult): Promise<void> {
    const list = result.exchanges;
    const from = this.unstored.get(result) ?? 0;
    // A token a case obtained itself (the token cases) is a live credential too: masked like the run's own.
    for (let i = from; i < list.length; i++) this.deps.secrets.add(issuedToken(list[i] as Exchange));
    const halt = this.deps.http.options.halt;
    let slice = performance.now();
    for (let i = from; i < list.length; i++) {
      if (performance.now() - slice > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      const ex = list[i] as Exchange;
      list[i] = halt?.aborted ? this.deps.secrets.withoutBodies(ex, `not kept: the run was stopped (${String(halt.reason)})`) : this.keep(ex);
    }
    this.unstored.set(result, list.length);
  }

  /**
   * The exchange as the report keeps it, masked: parsed and whole within the run's budget (KEPT_BYTES), else as text,
   * cut when long. The budget is decided on the raw body, so a body that is cut is only masked as far as it is kept.
   */
  private keep(ex: Exchange): Exchange {
    const { secrets } = this.deps;
    const res = ex.response;
    const size = res?.body.length ?? 0;
    const weight = !res ? 0 : size > KEPT_ONE ? Infinity : res.json === undefined ? 2 * size : parsedWeight(res.body);
    if (weight <= KEPT_ONE && this.kept + weight <= KEPT_BYTES) {
      this.kept += weight;
      return secrets.redact(ex);
    }
    if (!res || size <= KEPT_CUT) return secrets.redact(ex, { json: false });
    const cut = secrets.redact(ex, { cut: KEPT_CUT });
    const note = `the report keeps the first ${(cut.response as NonNullable<Exchange['response']>).body.length} of ${size} characters of this body`;
    (cut.response as NonNullable<Exchange['response']>).bodyProblem = res.bodyProblem ? `${res.bodyProblem}; ${note}` : note;
    return cut;
  }

  /** Follows meta.next_link from the first page to its end, bounded in pages and bytes and guarded against loops. */
  private async walk(step: StepDef, first: Exchange, result: CaseResult): Promise<Exchange[]> {
    const pages: Exchange[] = [];
    const seen = new Set<string>([first.request.url]);
    const max = step.paginate?.maxPages ?? DEFAULT_MAX_PAGES;
    let current = first;
    let bytes = pageWeight(first);
    while (pages.length + 1 < max) {
      if (endMarker(current) !== undefined) break;
      const link = readPath(current.response?.json, 'meta.next_link');
      if (typeof link !== 'string') break;
      let next: string;
      try {
        next = new URL(link, current.request.url).toString();
      } catch {
        break;
      }
      if (seen.has(next)) break; // a loop: walk-exactly-once reports it, since the last page still points on
      // Another origin: never requested (the HTTP client would refuse it anyway); next-link-same-origin reports it.
      if (!this.deps.http.allows(next) || new URL(next).origin !== new URL(current.request.url).origin) break;
      seen.add(next);
      current = await this.send(step, { method: 'GET', url: next, headers: { accept: 'application/json', authorization: `Bearer ${await this.token()}` } }, result, `${step.name} page ${pages.length + 2}`);
      pages.push(current);
      bytes += pageWeight(current);
      if (bytes > WALK_BYTES) {
        throw new Stop('error', `step "${step.name}": ${pages.length + 1} pages hold more than ${WALK_BYTES / 2 ** 20} MiB once parsed and meta.next_link still points on; the walk was stopped there`);
      }
      if (current.transportError || outcomeOf(current) === 'failure') break;
    }
    return pages;
  }

  /** Notes what the run created (and deleted) so the report can list what is left on the target. */
  private recordResidue(c: CaseDef, op: Operation, ex: Exchange, body: unknown, request: OutgoingRequest): void {
    // A partial success may come with a 4xx: what data lists was created all the same.
    const listed = Array.isArray(bodyObject(ex)?.['data']) && (bodyObject(ex)?.['data'] as unknown[]).length > 0;
    if (outcomeOf(ex) !== 'success' && !listed) return;
    if (op.kind === 'batchCreate' && Array.isArray(body)) {
      const identity = resourceInfo(op.resource).identity;
      const data = bodyObject(ex)?.['data'];
      const matched = new Set<unknown>();
      for (const item of body as Record<string, unknown>[]) {
        const key = item[identity];
        // Items may share an identity (many activities of one reference): each takes the next unmatched record.
        const created = Array.isArray(data) ? data.find((r) => !matched.has(r) && readPath(r, identity) === key) : undefined;
        if (created) matched.add(created);
        // An invalid item counts only when the answer says it was created anyway (a lenient server).
        if (this.deps.gen.invalidItems.has(item) && !created) continue;
        const id = readPath(created, 'id');
        this.ledger.push({
          resource: op.resource, operationId: op.operationId, reference: String(key), caseId: c.id,
          createdAt: ex.startedAt, deleted: false, ...(typeof id === 'number' || typeof id === 'string' ? { id } : {}),
        });
      }
    }
    if (op.kind === 'delete') {
      const last = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '');
      for (const entry of this.ledger) {
        if (entry.resource === op.resource && (String(entry.id) === last || entry.reference === last)) entry.deleted = true;
      }
    }
  }
}

/** What a page takes in memory: its text, and its parsed body when it has one. */
function pageWeight(ex: Exchange): number {
  const res = ex.response;
  if (!res) return 0;
  return res.json === undefined ? 2 * res.body.length : parsedWeight(res.body);
}

/**
 * About how many bytes a JSON text takes once parsed, counted in one scan without parsing it: V8 gives an object
 * about 64 bytes, an array 40, each value or member 16 more, and a string up to twice its length. 20,000 empty
 * objects (60 KB of text) weigh 1.7 MB here and take 1.3 MB parsed.
 */
export function parsedWeight(text: string): number {
  let containers = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) containers++;
    else if (c === 0x2c || c === 0x3a) members++;
  }
  return 2 * text.length + 64 * containers + 16 * members;
}

/** The access token a response hands out, read from the parsed body or, failing that, from the text. */
function issuedToken(ex: Exchange): string | undefined {
  const value = bodyObject(ex)?.['access_token'];
  if (typeof value === 'string') return value;
  return /"access_token"\s*:\s*"([^"\\]+)"/.exec(ex.response?.body.slice(0, 4_096) ?? '')?.[1];
}

/** The level of a clause id; undefined for "" (a precondition) or an interpretation id. */
function levelOf(id: string): 'MUST' | 'SHOULD' | undefined {
  if (!id) return undefined;
  try {
    return clauseOf(id).level;
  } catch {
    return undefined;
  }
}

/** How a list of values is written in a query (interpretation REFERENCE_LIST_ENCODING; the first is OpenAPI's default). */
export const LIST_ENCODINGS = ['repeat', 'brackets', 'comma', 'json'] as const;
export type ListEncoding = (typeof LIST_ENCODINGS)[number];
const isListEncoding = (value: unknown): value is ListEncoding => (LIST_ENCODINGS as readonly unknown[]).includes(value);

/** k=a&k=b, k[]=a&k[]=b, k=a,b or k=["a","b"]; a key already written k[] is sent as written. */
function appendList(params: URLSearchParams, name: string, values: string[], encoding: ListEncoding): void {
  if (name.endsWith('[]') || encoding === 'repeat') for (const v of values) params.append(name, v);
  else if (encoding === 'brackets') for (const v of values) params.append(`${name}[]`, v);
  else if (encoding === 'comma') params.append(name, values.join(','));
  else params.append(name, JSON.stringify(values));
}

/** A probe that was refused, waiting for its control to be sent at the end of the case. */
interface PendingControl {
  step: StepDef;
  op: Operation | undefined;
  /** The body the probe sent, as resolved (a control sends the same values). */
  body: unknown;
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

/** One sending of a step's request (one per list encoding tried) with its judged expectations. */
interface Attempt {
  encoding: ListEncoding | undefined;
  request: OutgoingRequest;
  first: Exchange;
  stepExchanges: Exchange[];
  judgements: (Judgement & { check: string; exchange: number })[];
}

/** Why an answer reads as it does, for expect.outcome messages. */
function describeOutcome(ex: Exchange): string {
  const body = bodyObject(ex);
  const records = Array.isArray(body?.['data']) ? (body?.['data'] as unknown[]).length : 0;
  const errors = Array.isArray(body?.['errors']) ? (body?.['errors'] as unknown[]).length : 0;
  if (errors > 0 && records === 0) return `an error body (${errors} error item(s))`;
  if (records > 0 && errors === 0) return `${records} record(s) in data`;
  if (records > 0) return `${records} record(s) and ${errors} error item(s)`;
  return 'a body that does not say';
}

function describeBody(ex: Exchange): string {
  const body = bodyObject(ex);
  const message = body?.['message'];
  const firstError = readPath(body, 'errors.0.message');
  return [typeof message === 'string' ? message : undefined, typeof firstError === 'string' ? firstError : undefined]
    .filter(Boolean).join(' — ') || (ex.response?.body.slice(0, 120) ?? '');
}
