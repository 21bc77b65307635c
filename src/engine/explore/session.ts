// One generated sequence against the target: the model of what it has stored so far, the steps it sent (as suite
// steps, so they are judged like any case's and replay as a YAML case), and its own records, named from the run's
// tag and the sequence's number so that no other sequence or case reads them.
import { getCheck } from '../../checks/index.js';
import { operation as operationOf } from '../../spec/index.js';
import type { Exchange } from '../../core/results.js';
import type { CaseDef, StepDef } from '../suite.js';
import { CaseRun, Stop, assertion, type RunServices } from '../case-run.js';
import { runStep } from '../step.js';
import type { ExpectedRecord } from '../../checks/model.js';
import type { ProfileDeclared } from '../../config/profile.js';

/** What the model holds of one record. */
export interface ModelRecord {
  /** The variable its {id} was captured into (addressed by id), or its reference (ATS job offers). */
  handle: string;
  /** Every field the writes set, null where the last write left it absent. */
  fields: Record<string, unknown>;
  /** Attributes by name (ATS job offers only). */
  attributes?: Map<string, unknown>;
  /** The clause the next read judges it by, and the write it rests on. */
  clause: string;
  why: string;
  /** The step that last wrote it (so a read after another record's write says so). */
  writtenAt: number;
}

/**
 * Bytes of answers one explore case may read: a target that answers every request with megabytes (a hostile one, or
 * one that lists everything) ends the search long before its requests would.
 */
export const EXPLORE_BYTES = 64 * 1024 * 1024;

/** How much exploration may spend: requests, time and bytes read, shared by every sequence of a case. */
export class Budget {
  private sent = 0;
  private read = 0;
  private readonly until: number;
  constructor(readonly requests: number, readonly ms: number) {
    this.until = Date.now() + ms;
  }
  spend(exchanges: Exchange[]): void {
    this.sent += exchanges.length;
    for (const ex of exchanges) this.read += ex.response?.body.length ?? 0;
  }
  get spent(): number {
    return this.sent;
  }
  exhausted(): boolean {
    return this.sent >= this.requests || this.read >= EXPLORE_BYTES || Date.now() >= this.until;
  }
}

/** Strings holding `${` would be read as templates: each is sent as written ({$literal}). */
export function literal(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('${') ? { $literal: value } : value;
  if (Array.isArray(value)) return value.map(literal);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literal(v)]));
  return value;
}

export class Session {
  readonly run: CaseRun;
  readonly records: ModelRecord[] = [];
  /** The steps sent, in order. */
  readonly steps: StepDef[] = [];
  /** What ended the sequence without a finding (no id to go on with, no answer), if anything did. */
  stop?: Stop;
  /** Items that must not have been stored (invalid in one field), looked for by the reads that could show them. */
  readonly absent: { match: Record<string, unknown>; clause: string; why: string }[] = [];
  /** Records a DELETE removed (by the variable of their {id}): a read of one must not find it. */
  readonly removed: { handle: string; why: string }[] = [];
  /** How many commands have run: a record written by the one under way is judged by that write's clause. */
  at = 0;
  private made = 0;

  constructor(c: CaseDef, services: RunServices, readonly seq: number, readonly budget: Budget, readonly statuses: readonly string[] = []) {
    this.run = new CaseRun(c, services);
  }

  /** What the profile declares of the points the spec leaves open. */
  get declared(): ProfileDeclared {
    return this.run.services.profile.declared;
  }

  /** The prefix of every value this sequence makes its own. */
  get tag(): string {
    return `${this.run.gen.runTag}x${this.seq}`;
  }

  /** One of the few values the records of this sequence share in a field. */
  shared(field: string, slot: number): string {
    return `${this.tag}-${field.replace(/[^a-z]/g, '').slice(0, 6)}${slot}`;
  }

  /** A value no other record has. */
  unique(field: string): string {
    return `${this.tag}-${field.replace(/[^a-z]/g, '').slice(0, 3)}${++this.made}`;
  }

  /** A new variable name for a record's {id}. */
  handle(): string {
    return `r${this.seq}n${++this.made}`;
  }

  /** Whether the sequence may go on: not stopped, nothing failed, budget left. */
  get live(): boolean {
    return !this.stop && !this.failed() && !this.budget.exhausted();
  }

  /** Sends a step and judges it; a case-ending answer (no id, no answer) stops the sequence instead of failing it. */
  async send(unnamed: StepDef): Promise<Exchange | undefined> {
    // Named by its place in the sequence, so each exchange is found again by its step's name.
    const step = { ...unnamed, name: `${this.steps.length + 1}. ${unnamed.name}` };
    this.steps.push(step);
    const before = this.run.result.exchanges.length;
    try {
      await runStep(this.run, step);
    } catch (error) {
      if (!(error instanceof Stop)) throw error;
      this.stop ??= error;
    } finally {
      this.budget.spend(this.run.result.exchanges.slice(before));
    }
    return this.run.result.exchanges.findLast((e) => e.step === step.name);
  }

  /** Judges an answer already recorded with a named check (a judgement that needs what the reads found first). */
  judge(checkId: string, ex: Exchange, args: Record<string, unknown>, operationId: string, requestBody?: unknown[], invalid?: object): void {
    const check = getCheck(checkId);
    if (!check) throw new Error(`rdx: no check ${checkId}`);
    if (invalid) this.run.gen.invalidItems.add(invalid);
    const ctx = {
      exchange: ex, stepExchanges: [ex], operation: operationOf(operationId), invalidItems: this.run.gen.invalidItems,
      args, declared: this.run.services.profile.declared, requestBody,
    };
    for (const j of check.run(ctx)) this.run.result.assertions.push(assertion({ ...j, check: checkId, exchange: this.run.indexOf(ex) }));
  }

  /** The assertions that failed, MUST or SHOULD. */
  failed(): boolean {
    return this.run.result.assertions.some((a) => !a.passed);
  }

  /** The model's expectation of a record for a read after step `at`. */
  expected(r: ModelRecord, match: Record<string, unknown>, at: number, last: string): ExpectedRecord {
    const fields = r.attributes ? { ...r.fields, attributes: [...r.attributes].map(([name, value]) => ({ name, value })) } : r.fields;
    if (r.writtenAt === at) return { match, fields, clause: r.clause, why: r.why };
    return { match, fields, clause: 'WRITE.READ_BACK', why: `${r.why}, not written since; ${last} ran after it` };
  }
}
