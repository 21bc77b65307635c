// What one case owns while it runs (its result, its variables, the values it could not capture, its controls), and
// the one place a case result is built. Nothing here is shared between cases: the run-wide services are RunServices.
import type { Judgement } from '../checks/index.js';
import { clause as clauseOf } from '../spec/index.js';
import type { Profile } from '../config/profile.js';
import type { HttpClient, ThrottledAnswer } from '../http/client.js';
import type { TokenProvider } from '../http/auth.js';
import type { Secrets } from '../http/redact.js';
import type { Operation } from '../spec/index.js';
import type { CaseDef, StepDef } from './suite.js';
import { TemplateError, resolve, type GenerationContext, type Vars } from './template.js';
import type { Assertion, CaseResult, Exchange, Unlock, Verdict } from '../core/results.js';
import type { IdSourceSet } from './id-sources.js';
import type { ThrottledAnswers } from './throttled.js';
import type { ResidueLedger } from './residue.js';
import type { ReportBudget } from './report-budget.js';

export interface RunnerDeps {
  profile: Profile;
  baseUrl: string;
  http: HttpClient;
  tokens: TokenProvider;
  /** Gets a token that has expired, or says why none can be had (a token request keeps its throttled answers in `throttled`). */
  expiredToken: (throttled?: ThrottledAnswer[]) => Promise<string | { unavailable: string }>;
  secrets: Secrets;
  /** The run's generation context: its tag, its factories, what the global checks read (invalidItems). */
  gen: GenerationContext;
  /** The generation context a case makes its data with (its own faker and unique numbers); the run's when absent. */
  genFor?: (caseId: string) => GenerationContext;
  /** The run's client credentials, for token cases (${credentials.clientId}); redacted from everything recorded. */
  credentials: { clientId: string; clientSecret: string };
  /** Where the {id} of a created record is learned when no answer shows it, per resource the profile names (idSources). */
  ids?: IdSourceSet;
}

/**
 * What every case of a run shares: the run's configuration and clients (the token cache lives in `tokens`, the
 * client-side rate budget in `http`), the residue ledger, the report's memory budget, the throttled answers judged
 * so far, and the results of the cases already run (the prerequisites of the next).
 */
export interface RunServices extends RunnerDeps {
  results: Map<string, CaseResult>;
  ledger: ResidueLedger;
  budget: ReportBudget;
  throttled: ThrottledAnswers;
  /** Bytes (as parsed) of list pages the walks under way hold together: one budget for the run (walk.ts). */
  walking: { bytes: number };
}

/** Values a step could not capture, by variable name: why, and what would unlock the cases that need them. */
export type Missing = Map<string, { why: string; unlock?: Unlock }>;

/** Ends a case early with a verdict other than its assertions' (skip or error); a skip says what would unlock it. */
export class Stop extends Error {
  constructor(readonly verdict: 'skip' | 'error', readonly reason: string, readonly unlock?: Unlock) {
    super(reason);
  }
}

/** A probe that was refused, waiting for its control to be sent at the end of the case. */
export interface PendingControl {
  step: StepDef;
  op: Operation | undefined;
  /** The body the probe sent, as resolved (a control sends the same values). */
  body: unknown;
}

/** A judgement with the check that made it and the index of the exchange it judged. */
export type Judged = Judgement & { check: string; exchange: number };

/** The result of a case, before anything is judged: the one place a CaseResult is made. */
export function caseResult(c: CaseDef, verdict: Verdict, reason?: string): CaseResult {
  return {
    id: c.id, title: c.title, level: c.level, clauses: c.clauses, endpoints: c.endpoints, tags: c.tags, tier: c.tier,
    file: `${c.file}:${c.line}`, verdict, ...(reason !== undefined ? { reason } : {}),
    assertions: [], observations: [], exchanges: [], durationMs: 0,
  };
}

/** The result of a case the run did not get to. */
export function unrunCase(c: CaseDef, reason: string): CaseResult {
  return caseResult(c, 'skip', `not run (${reason})`);
}

/** An assertion of the report, its level read from the clause. */
export function assertion(j: Judged): Assertion {
  return { clause: j.clause, level: clauseOf(j.clause).level, passed: j.passed, message: j.message, check: j.check, exchange: j.exchange };
}

/** One case under way: its definition, its result so far, and the state its steps pass on to one another. */
export class CaseRun {
  readonly result: CaseResult;
  readonly vars: Vars;
  /** Values a step could not capture; a later template that needs one skips the case, saying why. */
  readonly missing: Missing = new Map();
  /** Refused probes whose controls are sent once every step has run. */
  readonly controls: PendingControl[] = [];
  /** Endpoints whose failing throttled answer this case reports (ThrottledAnswers.settle once it ends). */
  readonly throttledFailures = new Set<string>();
  /**
   * The throttled answers the case's requests met (token requests included), until the next request records them:
   * passed with every request it sends, so that cases side by side never take one another's.
   */
  readonly throttledAnswers: ThrottledAnswer[] = [];
  /** How many of the case's exchanges the report budget has masked and kept so far, and up to where it is asked to. */
  private stored = 0;
  private storeTo = 0;
  /** The exchanges up to here are judged (judged()): stored as the case's next request goes out. */
  private judgedTo = 0;
  /** The stores asked for so far, one after another; a failed one fails storeAll. */
  private storing: Promise<void> = Promise.resolve();
  /** What the case makes its data with. */
  readonly gen: GenerationContext;

  constructor(readonly c: CaseDef, readonly services: RunServices) {
    this.result = caseResult(c, 'pass');
    const { credentials, profile } = services;
    this.gen = services.genFor?.(c.id) ?? services.gen;
    this.vars = {
      run: { tag: this.gen.runTag }, credentials, declared: profile.declared,
      fixtures: { atsJobOfferIds: profile.fixtures.atsJobOfferIds ?? [] },
    };
  }

  /** Resolves a template: a value a step could not capture skips the case, any other template problem is a suite error. */
  resolve(value: unknown, vars: Vars = this.vars): unknown {
    try {
      return resolve(value, vars, this.gen);
    } catch (error) {
      if (error instanceof TemplateError) {
        const gone = [...this.missing].find(([k]) => error.message.includes(`\${${k}`))?.[1];
        if (gone) throw new Stop('skip', gone.why, gone.unlock ?? { unlock: 'an answer that gives it', how: `${gone.why}; the spec leaves this open, so nothing in the profile unlocks it` });
        throw new Stop('error', `suite error: ${error.message}`);
      }
      throw error;
    }
  }

  /** Adds judged assertions to the result. */
  assert(judgements: Judged[]): void {
    for (const j of judgements) this.result.assertions.push(assertion(j));
  }

  /** The exchanges recorded so far are judged: their pages are masked and cut while the next request is on its way. */
  judged(): void {
    this.judgedTo = this.result.exchanges.length;
  }

  /**
   * A request of the case was handed to undici: the exchanges judged before it are masked and budgeted in the next
   * turn of the event loop, once undici has written it, while the target works on it. Stored before it, they kept
   * the target waiting as long as masking took, where now the harness masks while it would wait anyway.
   */
  requestDispatched(): void {
    const to = this.judgedTo;
    if (to <= this.storeTo) return;
    this.storeTo = to;
    this.storing = this.storing.then(nextTurn).then(async () => {
      this.stored = await this.services.budget.store(this.result.exchanges, this.stored, to);
    });
    // Not lost: storeAll awaits it.
    this.storing.catch(() => undefined);
  }

  /** Every exchange of the case masked and budgeted, those the stores asked for first: before its result leaves it. */
  async storeAll(): Promise<void> {
    await this.storing;
    this.stored = await this.services.budget.store(this.result.exchanges, this.stored);
    this.storeTo = this.stored;
  }

  /** The index of an exchange in the case's result. */
  indexOf(ex: Exchange): number {
    return this.result.exchanges.indexOf(ex);
  }
}

/**
 * Resolves in the event loop's next check phase: after undici's write of a request to a kept-alive connection,
 * which it makes from a setImmediate queued as the request was dispatched.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
