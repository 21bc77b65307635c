// Examples of the checks: for each check, exchanges it passes and exchanges it fails, as data. A test runs every
// check on its examples alone (no target, no engine), and docs/checks.md is generated from them.
import { operation as operationOf } from '../../src/spec/index.js';
import type { Exchange } from '../../src/core/results.js';
import type { CheckContext } from '../../src/checks/registry.js';

/** What the target answered. */
export interface Answer {
  status: number;
  /** A JSON body (serialized as the wire text). */
  body?: unknown;
  /** A body that is not JSON, as sent. */
  text?: string;
  /** Response headers; content-type is application/json unless given. */
  headers?: Record<string, string>;
}

export interface CheckExample {
  verdict: 'pass' | 'fail';
  /** The situation, in a sentence. */
  title: string;
  /** The operation the request went to (spec/openapi.yaml operationId). */
  operationId?: string;
  /** The request line, `METHOD /path?query`, when the operation's own path is not enough (filters, pages). */
  request?: string;
  answer: Answer;
  /** Further pages of the step, after `answer` (a walk through meta.next_link). */
  pages?: Answer[];
  /** The JSON body the step sent. */
  requestBody?: unknown;
  /** Indexes of requestBody items made invalid by $invalid. */
  invalid?: number[];
  /** The check's `with:` arguments. */
  args?: Record<string, unknown>;
}

/** Examples by check id. */
export type Examples = Record<string, CheckExample[]>;

export const TARGET = 'https://api.example.test';

function exchange(step: string, method: string, url: string, answer: Answer): Exchange {
  const body = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  return {
    step,
    request: { method, url, headers: {} },
    response: {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...(answer.headers ?? {}) },
      body,
      ...(answer.text === undefined && answer.body !== undefined ? { json: answer.body } : { bodyProblem: 'the body is not JSON' }),
    },
    startedAt: '2026-01-05T09:00:00.000Z',
    elapsedMs: 12,
  };
}

/** The context a check sees when the runner judges the example's step. */
export function contextOf(example: CheckExample): CheckContext {
  const op = example.operationId ? operationOf(example.operationId) : undefined;
  const [method, path] = example.request?.split(' ') ?? [op?.method ?? 'GET', (op?.path ?? '/').replace(/\{[^}]+\}/g, '1')];
  const first = exchange('example', method ?? 'GET', `${TARGET}${path ?? '/'}`, example.answer);
  const pages = (example.pages ?? []).map((answer, i) => {
    const previous = i === 0 ? example.answer : example.pages?.[i - 1];
    const link = (previous?.body as { meta?: { next_link?: unknown } } | undefined)?.meta?.next_link;
    return exchange(`example page ${i + 2}`, 'GET', typeof link === 'string' ? new URL(link, TARGET).href : `${TARGET}${path ?? '/'}`, answer);
  });
  const invalidItems = new WeakSet<object>();
  if (Array.isArray(example.requestBody)) {
    for (const i of example.invalid ?? []) {
      const item: unknown = example.requestBody[i];
      if (item && typeof item === 'object') invalidItems.add(item);
    }
  }
  return {
    exchange: first,
    stepExchanges: [first, ...pages],
    ...(op ? { operation: op } : {}),
    ...(example.requestBody !== undefined ? { requestBody: example.requestBody } : {}),
    invalidItems,
    args: example.args ?? {},
    declared: {},
  };
}
