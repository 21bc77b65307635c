// The result vocabulary shared by the http client, checks, engine and reporters: the bottom of the harness.
import type { Level } from '../spec/index.js';
import type { Unlock } from './unlocks.js';

/** What went over the wire: recorded for every request the harness sends, redacted before it is stored. */
export interface Exchange {
  /** Step name within the case, e.g. "create" or "walk page 3". */
  step: string;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    /** The step's auth mode: default, none, header, query or expired. */
    auth?: string;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** The parsed body, when it is JSON. */
    json?: unknown;
    /** Why the body is not JSON (or was cut at the size cap), when it is not. */
    bodyProblem?: string;
    /** The Content-Encoding the body came in and was decoded from (gzip, deflate, br), when it had one. */
    contentEncoding?: string;
  };
  /** Throttled answers (429, 503 with Retry-After) this request met and waited out before this one. */
  throttled?: { answers: number; waitedMs: number };
  /** Transport failure: the request got no complete answer. */
  transportError?: { kind: TransportErrorKind; message: string };
  startedAt: string;
  elapsedMs: number;
}

export type TransportErrorKind =
  | 'timeout' | 'connection-refused' | 'connection-reset' | 'dns' | 'tls' | 'too-large' | 'protocol' | 'other'
  /** Never sent: the URL leaves the origins the user named (see HttpOptions.origins). */
  | 'foreign-origin'
  /** Cut off or never sent because the run was stopped (--deadline, SIGINT, SIGTERM). */
  | 'stopped'
  /** Given up after throttled answers (429, 503 with Retry-After) past the wait caps. */
  | 'throttled'
  /** Never sent: a header value HTTP does not allow (CR, LF, NUL, a character above U+00FF), e.g. in a token. */
  | 'invalid-header';

/** One judgement of one clause on one exchange (or on a sequence of them). */
export interface Assertion {
  clause: string;
  level: 'MUST' | 'SHOULD';
  passed: boolean;
  /** What was expected and what came back, in a sentence. */
  message: string;
  /** Index into the case's exchanges that the judgement rests on. */
  exchange?: number;
  /** The named check that made this judgement. */
  check: string;
}

/** What an implementation chose on an open point of the spec (interpretation register). */
export interface Observation {
  interpretation: string;
  /** Sub-key, e.g. the outcome whose status was seen ("validation"). */
  key?: string;
  value: unknown;
  caseId: string;
}

export type Verdict = 'pass' | 'fail' | 'warn' | 'observed' | 'skip' | 'error';

export interface CaseResult {
  id: string;
  title: string;
  level: Level;
  clauses: string[];
  endpoints: number[];
  tags: string[];
  tier: Tier;
  file: string;
  /**
   * fail: a MUST assertion failed. warn: only SHOULD assertions failed. observed: an OBSERVE case ran.
   * skip: could not be judged (reason says why). error: the harness itself broke.
   */
  verdict: Verdict;
  reason?: string;
  /** A skip: what would let the case run (a flag, a profile key, a fixture, or the failed case it waits for). */
  unlock?: Unlock;
  assertions: Assertion[];
  observations: Observation[];
  exchanges: Exchange[];
  durationMs: number;
  /** Known failure from a baseline file: reported, but not counted against the exit code. */
  baseline?: { reason: string; expires?: string };
  /** An explore case (docs/explore.md): how far it searched, and for a finding the YAML case that replays it. */
  explore?: ExploreResult;
}

/** What an explore case did: its seed (rdx run --seed gives it again), the sequences and requests it spent. */
export interface ExploreResult {
  seed: number;
  sequences: number;
  requests: number;
  /** A finding: how many times fast-check shrank it, its steps, and the YAML case that replays them. */
  shrinks?: number;
  steps?: number;
  regression?: string;
}

export type { Unlock } from './unlocks.js';

export type Tier = 'read-only' | 'reversible' | 'irreversible';

/** A record the run created and could not delete, so staging owners can purge it. */
export interface ResidueEntry {
  resource: string;
  operationId: string;
  reference?: string;
  id?: number | string;
  caseId: string;
  createdAt: string;
  deleted: boolean;
}

/** Derives a case's verdict from its assertions (OBSERVE cases never fail on SHOULD/MUST of their own). */
export function verdictOf(level: Level, assertions: Assertion[]): Verdict {
  if (assertions.some((a) => !a.passed && a.level === 'MUST')) return 'fail';
  if (assertions.some((a) => !a.passed && a.level === 'SHOULD')) return 'warn';
  return level === 'OBSERVE' ? 'observed' : 'pass';
}
