// The report contract: what a run writes once (report.json) and what every output reads. The engine fills it
// (src/engine/run.ts), the verdict and its facts come from one function (summarise, src/core/verdict.ts), and every
// reader (the reporters, rdx report/diff/badge/verify, the dashboard, examples/job-summary.mjs) only reads them.
// docs/reports.md describes the file; docs/verdicts.md the verdict.
import type { ResidueSummary } from './residue.js';
import type { CaseResult, Observation, ResidueEntry, Unlock } from './results.js';

export type { ResidueSummary } from './residue.js';

/** The one format this harness writes and reads; a report of any other is refused (exit 2). */
export const REPORT_FORMAT = 'rdx-report/1';

export type RunVerdict = 'CONFORMANT' | 'INCOMPLETE' | 'KNOWN_FAILURES' | 'NOT_CONFORMANT';

/** What fails the run: MUST failures only (the default), or SHOULD warnings too (--fail-on should). */
export type FailOn = 'must' | 'should';

/** One line of "To complete this certification": what would let these MUST cases be judged. */
export interface ToComplete {
  unlock: string;
  how: string;
  /** The id of every unjudged MUST case this unlock would let run. */
  cases: string[];
}

/** A MUST case the run did not judge although it was meant to (filtered out, or in a shard that is missing). */
export interface NotRun {
  id: string;
  unlock: Unlock;
}

/** Why a run stopped before its last case: the reason of every case it did not run starts "not run (<reason>)". */
export type StopReason = 'deadline' | 'interrupted';

export interface InterpretationProfile {
  id: string;
  question: string;
  key: string | null;
  declared?: unknown;
  observed: Omit<Observation, 'interpretation'>[];
}

export interface EndpointLatency {
  /** Answers timed. */
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** Keyed by the endpoint number of the spec (1 = POST /oauth2/token … 21 = PUT /users). */
export type Latency = Record<string, EndpointLatency>;

export interface BaselineOutcome {
  /** Entries whose case passed: the known failure is fixed, remove the entry. */
  unexpectedPasses: string[];
  /** Entries past their expiry: their failures count again. */
  expired: string[];
}

/** The counts and the verdict of a run: written by summarise() only. */
export interface Summary {
  total: number;
  byVerdict: Record<string, number>;
  byLevel: Record<string, Record<string, number>>;
  mustFailures: number;
  errors: number;
  /** The run's verdict: CONFORMANT only when every MUST case was judged and passed. */
  verdict: RunVerdict;
  /** True only for CONFORMANT. */
  conformant: boolean;
  /** MUST cases not judged: skipped, or meant to run and left out (filters, a missing shard, --bail). */
  unjudgedMust: number;
  /** "To complete this certification": what lets each unjudged MUST case run, with the id of every one. */
  toComplete: ToComplete[];
  /** Failed SHOULD assertions' cases (warn), baseline entries aside. */
  shouldWarnings: number;
  /** Failed cases excused by the baseline. */
  knownFailures: number;
  failOn: FailOn;
}

/** A report made of several: which runs it came from (the run fields of the merged report are the first's). */
export interface MergedFrom {
  file: string;
  runId: string;
  runTag: string;
  seed: number;
  startedAt: string;
  cases: number;
  shard?: string;
}

/** Who signs the bundle of this run: the SHA-256 fingerprint of the Ed25519 public key (rdx run --sign-key). */
export interface Signer {
  algorithm: 'Ed25519';
  /** "SHA256:" and the hex SHA-256 of the public key's DER (SPKI) bytes. */
  fingerprint: string;
}

export interface RunReport {
  format: typeof REPORT_FORMAT;
  harness: { name: 'rdx-conformance'; version: string };
  spec: { hash: string; clauses: number; interpretations: number };
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    durationMs: number;
    seed: number;
    runTag: string;
    target: { baseUrl: string; embedded: boolean; image?: string };
    options: Record<string, unknown>;
    /** Present when the run was stopped early: the report holds every case, those not run as skip. */
    stopped?: { reason: StopReason; at: string; notRun: number };
    /** Present when its bundle is signed: the key that signs it. */
    signer?: Signer;
  };
  summary: Summary;
  cases: CaseResult[];
  /** How fast the target answered, per endpoint, during this run (not a load test: see src/engine/latency.ts). */
  latency: Latency;
  implementationProfile: InterpretationProfile[];
  residue: ResidueEntry[];
  /** How many records the run left on the target, per resource, and why (residueSummary(), src/core/residue.ts). */
  residueSummary?: ResidueSummary;
  baseline?: { file: string; entries: number } & BaselineOutcome;
  /** A merged report (rdx report): the runs it was made of. */
  mergedFrom?: MergedFrom[];
  /** The shards of the run that were not given to the merge ("3/3"); their MUST cases are unjudged. */
  missingShards?: string[];
  /**
   * What the run met from a rate-limiting target: throttled answers (429, 503 with Retry-After) per endpoint number,
   * the time waited after them and the time held to the client-side pace.
   */
  transport?: TransportStats;
}

/** What the run met from a rate-limiting target, for the report (RunReport.transport). */
export interface TransportStats {
  /** Throttled answers (429, 503 with Retry-After), per endpoint of the spec ("other" for the rest). */
  throttled: Record<string, number>;
  /** Time spent waiting after throttled answers (Retry-After or backoff), in ms. */
  waitedMs: number;
  /** Time spent holding requests to the client-side pace (--rate, adaptive slowing), in ms. */
  pacedMs: number;
  /** Requests given up after too many throttled answers or the run's wait budget. */
  gaveUp: number;
  /** The pace the run ended at, in requests per second, when one held it. */
  rateLimit?: number;
}
