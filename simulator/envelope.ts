// The spec's response envelope: {message, data}, lists with meta.next_link, batch variants, and the error body
// {message, errors: [{message, data}]}. Every status comes from interpretation STATUS_CODES by outcome.
import type { JsonObject, SimResponse } from './context.js';
import { rules, type Outcome } from './rules.js';

export function reply(outcome: Outcome, body: JsonObject, headers: Record<string, string> = {}): SimResponse {
  return { status: rules().status[outcome], outcome, headers, body };
}

export function messageReply(message: string, outcome: Outcome = 'ok'): SimResponse {
  return reply(outcome, { message });
}

export function dataReply(message: string, data: unknown[], outcome: Outcome = 'ok'): SimResponse {
  return reply(outcome, { message, data });
}

export function listReply(message: string, data: unknown[], nextLink: string | null): SimResponse {
  return reply('ok', { message, data, meta: { next_link: nextLink } });
}

export function errorBody(message: string, problems: readonly string[] = [message]): JsonObject {
  const data = rules().errorItemData;
  return { message, errors: problems.map((problem) => ({ message: problem, data })) };
}

export function errorReply(outcome: Outcome, message: string, problems?: readonly string[], headers: Record<string, string> = {}): SimResponse {
  return reply(outcome, errorBody(message, problems), headers);
}

/** A refusal thrown from any stage or handler; the pipeline answers it with the error body. */
export class SimError extends Error {
  constructor(
    readonly outcome: Outcome,
    message: string,
    readonly problems?: readonly string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SimError';
  }

  toResponse(): SimResponse {
    return errorReply(this.outcome, this.message, this.problems, this.headers);
  }
}

/** `1 job offer`, `3 job offers`. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
