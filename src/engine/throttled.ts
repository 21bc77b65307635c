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
  /** Per endpoint, whether a passing and whether a failing throttled answer has been reported already. */
  private readonly reported = new Map<string, { passed: boolean; failed: boolean }>();

  constructor(private readonly declared: ProfileDeclared, private readonly invalidItems: WeakSet<object>) {}

  /**
   * The answers to report, each with its judgements: per endpoint the first that passes and the first that fails;
   * every other one is only counted (TransportStats). An answer to no endpoint of the spec is not judged.
   */
  judge(answers: { endpoint: string | undefined; exchange: Exchange }[]): ThrottledJudgement[] {
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
      const seen = this.reported.get(endpoint) ?? { passed: false, failed: false };
      if (passed ? seen.passed : seen.failed) continue;
      this.reported.set(endpoint, passed ? { ...seen, passed: true } : { ...seen, failed: true });
      out.push({ endpoint, exchange, judgements });
    }
    return out;
  }

  /**
   * The case that reported these endpoints' failing answers ended unjudged (skip or error), so its assertions are in
   * no verdict: the next throttled answer of each is reported again, so that a skip never hides a bad answer.
   */
  unreport(endpoints: Iterable<string>): void {
    for (const endpoint of endpoints) {
      const seen = this.reported.get(endpoint);
      if (seen) this.reported.set(endpoint, { ...seen, failed: false });
    }
  }
}
