// What would let a MUST case the run left out be judged, for each reason a run leaves one out: the inputs of
// summarise()'s unjudged MUST cases (verdict.ts). Written by the run (src/engine/run-report.ts, src/core/verdict.ts)
// and read back by the merge of shards (src/reporters/merge.ts), which must recognise a shard's unlock to say the
// shard is missing: one wording, and the one reader of it, here. No imports: the dashboard's page reads these types.

/** What lets an unjudged case run: `unlock` names it (--allow-irreversible, fixtures.atsJobOfferIds, …), `how` says what to do. */
export interface Unlock {
  unlock: string;
  how: string;
}

/** One line of "To complete this certification": what would let these MUST cases be judged. */
export interface ToComplete {
  unlock: string;
  how: string;
  /** The id of every unjudged MUST case this unlock would let run. */
  cases: string[];
}

/** --bail stopped the run at its first failure: what it never reached was not judged. */
export const BAIL_UNLOCK: Unlock = { unlock: 'without --bail', how: 'run without --bail: the run stopped at the first failing case' };

/** The filters left the case out: a filtered run certifies only its part. */
export const FILTERS_UNLOCK: Unlock = {
  unlock: 'without filters',
  how: 'run without --tag, --level, --endpoint, --clause, --grep or --read-only: they left these cases out',
};

/** The run's time limit came first. */
export const DEADLINE_UNLOCK: Unlock = {
  unlock: '--deadline',
  how: 'give the run more time (a longer --deadline), or run the missing cases alone and merge the reports',
};

/** A signal stopped the run. */
export const INTERRUPTED_UNLOCK: Unlock = { unlock: 'an uninterrupted run', how: 'run again to the end (the run was stopped by a signal)' };

/** The case belongs to another shard of the same filters. */
export const shardUnlock = (index: number, count: number): Unlock => ({
  unlock: `--shard ${index}/${count}`,
  how: `run shard ${index}/${count} too and merge the reports with rdx report`,
});

/** The shard ("2/3") a shard's unlock names; undefined for any other unlock. */
export const shardOfUnlock = (unlock: string): string | undefined => /^--shard (\d+\/\d+)$/.exec(unlock)?.[1];

/** A merge of shards without this one: its cases stay unjudged until its report is merged too. */
export const missingShardUnlock = (shard: string): Unlock => ({
  unlock: `--shard ${shard}`,
  how: `shard ${shard} is missing: run it and merge its report.json too`,
});
