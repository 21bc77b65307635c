// Merging the reports of shards (rdx run --shard i/n) into one report.
import { residueSummary } from '../core/residue.js';
import { shownVerdict, verdictRank } from '../core/case-view.js';
import { UsageError } from '../errors.js';
import type { CaseResult, Unlock } from '../core/results.js';
import { missingShardUnlock, shardOfUnlock } from '../core/unlocks.js';
import type { InterpretationProfile, MergedFrom, NotRun, RunReport } from '../core/report.js';
import { summarise } from '../core/verdict.js';
import { latencyOf } from '../engine/latency.js';
import { mergeTransport } from './transport.js';

export type { MergedFrom } from '../core/report.js';

/** A report as the readers take it: one run's, or several merged (mergedFrom, missingShards). */
export type Report = RunReport;

/**
 * One report from several of the same harness version and spec: cases concatenated and de-duplicated by id
 * (a case run twice, e.g. a prerequisite pulled into two shards, keeps its worse verdict), the summary recomputed,
 * the implementation profile and the residue ledger merged. Reports of different targets are refused too: one
 * verdict over two implementations would certify neither.
 */
export function mergeReports(reports: { file: string; report: Report }[]): Report {
  const [first, ...rest] = reports;
  if (!first) throw new UsageError('no report to merge');
  if (rest.length === 0) return first.report;
  const base = first.report;
  const runs = new Map<string, string>();
  for (const { file, report } of reports) {
    const twice = runs.get(report.run.id);
    if (twice) throw new UsageError(`cannot merge: ${file} and ${twice} are the same run (${report.run.id}); give each report once`, 'RDX_ERR_MERGE');
    runs.set(report.run.id, file);
  }
  refuseUnlike(first, rest);

  const cases = new Map<string, CaseResult>();
  for (const { report } of reports) {
    for (const c of report.cases) {
      const seen = cases.get(c.id);
      if (!seen || verdictRank(shownVerdict(c)) > verdictRank(shownVerdict(seen))) cases.set(c.id, c);
    }
  }
  const merged = [...cases.values()];

  const started = reports.map((r) => r.report.run.startedAt).sort()[0] as string;
  const finished = reports.map((r) => r.report.run.finishedAt).sort().at(-1) as string;
  const { shard: _shard, ...filters } = (base.run.options['filters'] ?? {}) as Record<string, unknown>;
  const baselines = reports.map((r) => r.report.baseline).filter((b): b is NonNullable<RunReport['baseline']> => !!b);
  const union = (lists: string[][]): string[] => [...new Set(lists.flat())];
  const from = reports.flatMap(({ file, report }) => report.mergedFrom ?? [{
    file,
    runId: report.run.id,
    runTag: report.run.runTag,
    seed: report.run.seed,
    startedAt: report.run.startedAt,
    cases: report.cases.length,
    ...(shardOf(report) ? { shard: shardOf(report) } : {}),
  }]);
  const missingShards = missing(from);
  const residue = reports.flatMap((r) => r.report.residue);
  // What each run knew it left out (other shards, filters) stays unjudged unless another run judged it. A missing
  // shard's cases are those each shard's report lists under that shard's unlock: read from the reports, never planned
  // again here, so no pattern a report file holds (filters.grep) is ever run.
  const notRun: NotRun[] = reports.flatMap(({ report }) => report.summary.toComplete
    .flatMap((t) => t.cases.map((id) => ({ id, unlock: mergedUnlock(t, missingShards) }))));

  return {
    ...base,
    run: {
      ...base.run,
      startedAt: started,
      finishedAt: finished,
      durationMs: Date.parse(finished) - Date.parse(started),
      options: { ...base.run.options, filters },
    },
    // The verdict of the merged cases, by the one function that decides a run's verdict.
    summary: summarise(merged, { failOn: base.summary.failOn, notRun }),
    cases: merged,
    // Timed again over the merged cases: percentiles of shards cannot be combined from their summaries.
    latency: latencyOf(merged, base.run.target.baseUrl, (base.run.options['profile'] as { tokenUrl?: string } | undefined)?.tokenUrl),
    implementationProfile: mergeProfiles(reports.map((r) => r.report.implementationProfile)),
    // Every run tags what it creates with its own run tag, so the ledgers of different runs never overlap.
    residue,
    residueSummary: residueSummary(residue),
    ...transportOf(reports.map((r) => r.report.transport)),
    ...(baselines.length ? {
      baseline: {
        file: baselines[0]?.file as string,
        entries: Math.max(...baselines.map((b) => b.entries)),
        // A known failure fixed in one shard is fixed: the case ran there.
        unexpectedPasses: union(baselines.map((b) => b.unexpectedPasses)),
        expired: union(baselines.map((b) => b.expired)),
      },
    } : {}),
    mergedFrom: from,
    ...(missingShards.length ? { missingShards } : {}),
  };
}

/** Reports that cannot make one verdict together: another spec, harness version, --fail-on rule or target. */
function refuseUnlike(first: { file: string; report: Report }, rest: { file: string; report: Report }[]): void {
  const base = first.report;
  for (const { file, report } of rest) {
    if (report.spec.hash !== base.spec.hash) {
      throw new UsageError(`cannot merge: ${file} was judged against spec ${report.spec.hash.slice(0, 12)}, ${first.file} against spec ${base.spec.hash.slice(0, 12)}; merge only reports of the same spec`, 'RDX_ERR_MERGE');
    }
    if (report.harness.version !== base.harness.version) {
      throw new UsageError(`cannot merge: ${file} comes from harness ${report.harness.version}, ${first.file} from ${base.harness.version}; merge only reports of the same harness version`, 'RDX_ERR_MERGE');
    }
    if (report.summary.failOn !== base.summary.failOn) {
      throw new UsageError(`cannot merge: ${file} was run with --fail-on ${report.summary.failOn}, ${first.file} with --fail-on ${base.summary.failOn}; one verdict needs one rule for what fails it`, 'RDX_ERR_MERGE');
    }
    const embedded = report.run.target.embedded && base.run.target.embedded;
    if (!embedded && report.run.target.baseUrl !== base.run.target.baseUrl) {
      throw new UsageError(`cannot merge: ${file} judged ${report.run.target.baseUrl}, ${first.file} judged ${base.run.target.baseUrl}; merge only reports of one target`, 'RDX_ERR_MERGE');
    }
  }
}

/** The shards "i/n" of a sharded run that none of the merged reports is. */
function missing(from: MergedFrom[]): string[] {
  const shards = from.map((m) => m.shard).filter((s): s is string => !!s);
  const counts = new Set(shards.map((s) => s.split('/')[1]));
  if (counts.size !== 1) return [];
  const count = Number([...counts][0]);
  const have = new Set(shards);
  return Array.from({ length: count }, (_, i) => `${i + 1}/${count}`).filter((s) => !have.has(s));
}

/** A shard's unlock ("--shard 2/3") says the shard is missing from the merge when it is; any other stays as it was. */
function mergedUnlock(t: Unlock, missingShards: string[]): Unlock {
  const shard = shardOfUnlock(t.unlock);
  return shard !== undefined && missingShards.includes(shard) ? missingShardUnlock(shard) : { unlock: t.unlock, how: t.how };
}

function shardOf(report: RunReport): string | undefined {
  const shard = (report.run.options['filters'] as { shard?: { index: number; count: number } } | undefined)?.shard;
  return shard ? `${shard.index}/${shard.count}` : undefined;
}

function mergeProfiles(profiles: InterpretationProfile[][]): InterpretationProfile[] {
  const byId = new Map<string, InterpretationProfile>();
  for (const entry of profiles.flat()) {
    const seen = byId.get(entry.id);
    if (!seen) {
      byId.set(entry.id, { ...entry, observed: [...entry.observed] });
      continue;
    }
    if (seen.declared === undefined && entry.declared !== undefined) seen.declared = entry.declared;
    for (const o of entry.observed) {
      const same = (x: typeof o): boolean => x.caseId === o.caseId && x.key === o.key && JSON.stringify(x.value) === JSON.stringify(o.value);
      if (!seen.observed.some(same)) seen.observed.push(o);
    }
  }
  return [...byId.values()];
}

/** The merged report's transport figures, or nothing when no shard had them (the shards' own are not carried over). */
function transportOf(parts: Parameters<typeof mergeTransport>[0]): { transport?: NonNullable<ReturnType<typeof mergeTransport>> } {
  const merged = mergeTransport(parts);
  return merged ? { transport: merged } : {};
}
