// The throttled answers a run met (429, 503 with Retry-After) are waited out by the HTTP client, but each is still an
// answer of the target to a failing request, so it is judged for the error envelope (Errors, testing rule 1): once
// per endpoint, not once per retry, so a run that meets a hundred bare-text 429s on one endpoint reports one failure.
import { errorBody, errorItems } from '../checks/envelope.js';
import type { CheckContext, Judgement } from '../checks/registry.js';
import type { ProfileDeclared } from '../config/profile.js';
import type { Exchange } from '../core/results.js';
import { operations } from '../spec/index.js';

/** The error-envelope checks a throttled answer is judged by. */
const CHECKS = [errorBody, errorItems];

export interface ThrottledJudgement {
  endpoint: string;
  exchange: Exchange;
  judgements: (Judgement & { check: string })[];
}

export class ThrottledAnswers {
  /** Endpoints a passing throttled answer has been reported for. */
  private readonly passed = new Set<string>();
  /** Endpoints whose failing throttled answer is in the verdict of a case that has ended judged. */
  private readonly failed = new Set<string>();

  constructor(private readonly declared: ProfileDeclared, private readonly invalidItems: WeakSet<object>) {}

  /**
   * The answers to report, each with its judgements: per endpoint the first that passes, and the first that fails
   * until a case that reported one ends judged (cases under way side by side may each report one: none is lost if
   * the one that reported it first ends unjudged); every other one is only counted (TransportStats). An answer to no
   * endpoint of the spec is not judged. `reportedByCase` holds the endpoints whose failing answer the asking case has
   * reported already (one each), and gains the new ones.
   */
  judge(answers: { endpoint: string | undefined; exchange: Exchange }[], reportedByCase: Set<string>): ThrottledJudgement[] {
    const out: ThrottledJudgement[] = [];
    for (const { endpoint, exchange } of answers) {
      const operation = operations().find((o) => String(o.endpoint) === endpoint && o.method === exchange.request.method.toUpperCase());
      if (!operation || endpoint === undefined) continue;
      const ctx: CheckContext = {
        exchange, stepExchanges: [exchange], operation, invalidItems: this.invalidItems, args: {}, declared: this.declared,
      };
      const judgements = CHECKS.filter((c) => c.appliesTo?.(ctx) ?? true)
        .flatMap((c) => c.run(ctx).map((j) => ({ ...j, check: c.id, message: `throttled answer (sent again after it): ${j.message}` })));
      if (judgements.length === 0) continue;
      const passed = judgements.every((j) => j.passed);
      if (passed ? this.passed.has(endpoint) : this.failed.has(endpoint) || reportedByCase.has(endpoint)) continue;
      if (passed) this.passed.add(endpoint);
      else reportedByCase.add(endpoint);
      out.push({ endpoint, exchange, judgements });
    }
    return out;
  }

  /**
   * A case that reported these endpoints' failing answers has ended: judged (pass, fail, warn, observed), its
   * verdict carries them and no other case reports one again; unjudged (skip, error), its assertions are in no
   * verdict, so the next failing answer of each is reported again: a skip never hides a bad answer.
   */
  settle(endpoints: Iterable<string>, judged: boolean): void {
    if (judged) for (const endpoint of endpoints) this.failed.add(endpoint);
  }

}
