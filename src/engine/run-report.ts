// Assembling the report of a finished (or stopped) run from the case results: the contract is src/core/report.ts.
import { randomBytes } from 'node:crypto';
import { clauses, interpretations, specHash } from '../spec/index.js';
import { redactedProfile, type Profile } from '../config/profile.js';
import type { SweepOutcome } from './sweep.js';
import type { HttpClient } from '../http/client.js';
import type { Secrets } from '../http/redact.js';
import { stripUserinfo } from '../http/redact.js';
import { planCases, type CaseFilters } from './plan.js';
import type { CaseDef } from './suite.js';
import type { CaseResult, ResidueEntry } from '../core/results.js';
import { harnessVersion } from '../version.js';
import { summarise, type FailOn } from '../core/verdict.js';
import { residueSummary } from '../core/residue.js';
import { REPORT_FORMAT, type BaselineOutcome, type InterpretationProfile, type NotRun, type RunReport, type StopReason } from '../core/report.js';
import { latencyOf } from './latency.js';
import { unrunCase } from './case-run.js';
import { BAIL_UNLOCK, FILTERS_UNLOCK, shardUnlock } from '../core/unlocks.js';

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}-${randomBytes(2).toString('hex')}`;
}

/** A case the run did not get to (or could not finish) because it was stopped: unjudged, never a pass. */
export const stoppedBeforeRun = (c: CaseResult): boolean => c.verdict === 'skip' && /^not run \((deadline|interrupted)\)/.test(c.reason ?? '');

/** Everything the report is made of, as the run ends. */
export interface RunRecord {
  all: CaseDef[];
  planned: CaseDef[];
  results: Map<string, CaseResult>;
  residue: ResidueEntry[];
  profile: Profile;
  filters: CaseFilters;
  failOn: FailOn;
  startedAt: Date;
  runTag: string;
  /** How many cases could run side by side. */
  concurrency: number;
  /** The run's time limit (--deadline, else the default). */
  deadlineMs: number;
  target: { baseUrl: string; tokenUrl: string; embedded: boolean; image?: string };
  halt: AbortSignal;
  stoppedAt: Date | undefined;
  http: HttpClient;
  secrets: Secrets;
  /** What the end-of-run sweep did; none when the run was stopped before it. */
  sweep?: SweepOutcome;
  baseline?: { file: string; entries: number } & BaselineOutcome;
}

export function assembleReport(run: RunRecord): RunReport {
  const { planned, results, halt, profile, target, secrets } = run;
  // A case still under way when the run gave up waiting for it (HALT_GRACE_MS) is reported as not run.
  const cases = planned.map((c) => results.get(c.id) ?? (halt.aborted ? unrunCase(c, String(halt.reason)) : undefined))
    .filter((r): r is CaseResult => !!r);
  const notRun = [
    ...leftOut(run.all, planned, run.filters),
    // --bail stops the run at the first failure: what it never reached was not judged.
    ...planned.filter((c) => c.level === 'MUST' && !results.has(c.id))
      .map((c) => ({ id: c.id, unlock: BAIL_UNLOCK })),
  ];
  const finishedAt = new Date();
  return {
    format: REPORT_FORMAT,
    harness: { name: 'rdx-conformance', version: harnessVersion },
    spec: { hash: specHash(), clauses: clauses().length, interpretations: interpretations().length },
    run: {
      id: newRunId(run.startedAt),
      startedAt: run.startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - run.startedAt.getTime(),
      seed: profile.seed,
      runTag: run.runTag,
      concurrency: run.concurrency,
      deadlineMs: run.deadlineMs,
      target: { baseUrl: stripUserinfo(target.baseUrl), embedded: target.embedded, ...(target.image ? { image: target.image } : {}) },
      options: secrets.scrubValue({
        profile: redactedProfile(profile), filters: run.filters, failOn: run.failOn,
      }) as Record<string, unknown>,
      ...(run.stoppedAt
        ? { stopped: { reason: halt.reason as StopReason, at: run.stoppedAt.toISOString(), notRun: cases.filter(stoppedBeforeRun).length } }
        : {}),
    },
    summary: summarise(cases, { failOn: run.failOn, notRun }),
    cases,
    latency: latencyOf(cases, target.baseUrl, target.tokenUrl),
    implementationProfile: implementationProfile(cases, profile),
    residue: run.residue,
    residueSummary: residueSummary(run.residue),
    transport: { ...run.http.transportStats(), ...(run.sweep ? { sweep: run.sweep } : {}) },
    ...(run.baseline ? { baseline: run.baseline } : {}),
  };
}

/**
 * The MUST cases of the suites that the filters left out of this run: a filtered run certifies only its part. A
 * case outside this shard but inside the other filters is unlocked by its own shard (rdx report merges them).
 */
export function leftOut(all: CaseDef[], ran: CaseDef[], filters: CaseFilters): NotRun[] {
  const { shard, ...rest } = filters;
  if (!Object.values(rest).some((v) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)) && !shard) return [];
  const inRun = new Set(ran.map((c) => c.id));
  const unfiltered = new Set(planCases(all, {}).cases.map((c) => c.id));
  const wanted = shard ? planCases(all, rest).cases : [];
  const shardOf = new Map<string, number>();
  if (shard) {
    for (let i = 1; i <= shard.count; i++) {
      for (const c of planCases(all, { ...rest, shard: { index: i, count: shard.count } }).cases) if (!shardOf.has(c.id)) shardOf.set(c.id, i);
    }
  }
  const inWanted = new Set(wanted.map((c) => c.id));
  return all.filter((c) => c.level === 'MUST' && unfiltered.has(c.id) && !inRun.has(c.id)).map((c) => {
    const i = shardOf.get(c.id);
    if (shard && inWanted.has(c.id) && i !== undefined) {
      return { id: c.id, unlock: shardUnlock(i, shard.count) };
    }
    return { id: c.id, unlock: FILTERS_UNLOCK };
  });
}

function implementationProfile(cases: CaseResult[], profile: Profile): InterpretationProfile[] {
  const observations = cases.flatMap((c) => c.observations);
  return interpretations().map((i) => ({
    id: i.id,
    question: i.question,
    key: i.key,
    ...(i.key && profile.declared[i.key] !== undefined ? { declared: profile.declared[i.key] } : {}),
    observed: observations.filter((o) => o.interpretation === i.id).map(({ interpretation: _, ...rest }) => rest),
  }));
}
