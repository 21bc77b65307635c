// The case filters shared by `rdx run` and `rdx list`.
import type { Argv } from 'yargs';
import type { CaseFilters } from '../../engine/plan.js';
import { UsageError } from '../../errors.js';
import type { Level } from '../../spec/index.js';
import { MAX_SHARDS } from '../../core/report.js';

export function filterOptions(y: Argv): Argv {
  return y
    .option('tag', { type: 'string', array: true, describe: 'Only cases with one of these tags' })
    .option('level', { type: 'string', array: true, choices: ['MUST', 'SHOULD', 'OBSERVE'], describe: 'Only cases of these levels' })
    .option('endpoint', { type: 'string', array: true, describe: 'Only cases calling these endpoints: a number 1..21 or an operationId' })
    .option('clause', { type: 'string', array: true, describe: 'Only cases verifying these clauses (a family prefix like AUTH works)' })
    .option('grep', { alias: 'g', type: 'string', describe: 'Only cases whose "id title" matches this regular expression' })
    .option('invert', { alias: 'i', type: 'boolean', describe: 'Invert --grep' })
    .option('read-only', { type: 'boolean', describe: 'Only read-only cases (safe on production)' })
    .option('shard', { type: 'string', describe: 'Run the i-th of n deterministic slices, e.g. 2/4' });
}

export function filtersFrom(argv: Record<string, unknown>, operationEndpoint?: (name: string) => number | undefined): CaseFilters {
  const list = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.flatMap((x) => String(x).split(',')).filter(Boolean) : undefined);
  const filters: CaseFilters = {};
  const tags = list(argv['tag']);
  if (tags) filters.tags = tags;
  const levels = list(argv['level']);
  if (levels) filters.levels = levels as Level[];
  const endpoints = list(argv['endpoint']);
  if (endpoints) {
    filters.endpoints = endpoints.map((e) => {
      const n = /^\d+$/.test(e) ? Number(e) : operationEndpoint?.(e);
      if (!n || n < 1 || n > 21) throw new UsageError(`--endpoint ${e}: give a number 1..21 or an operationId of spec/openapi.yaml`);
      return n;
    });
  }
  const clauses = list(argv['clause']);
  if (clauses) filters.clauses = clauses;
  if (typeof argv['grep'] === 'string') {
    try {
      new RegExp(argv['grep']);
    } catch {
      throw new UsageError(`--grep ${argv['grep']}: not a valid regular expression`);
    }
    filters.grep = argv['grep'];
  }
  if (argv['invert']) filters.invert = true;
  if (argv['readOnly']) filters.readOnly = true;
  if (typeof argv['shard'] === 'string') {
    const m = /^(\d+)\/(\d+)$/.exec(argv['shard']);
    const index = Number(m?.[1]);
    const count = Number(m?.[2]);
    // A report of more shards than MAX_SHARDS is refused when read back (rdx report): so is such a run.
    if (!m || count < 1 || index < 1 || index > count || count > MAX_SHARDS) throw new UsageError(`--shard ${argv['shard']}: write i/n with 1 <= i <= n <= ${MAX_SHARDS}`);
    filters.shard = { index, count };
  }
  return filters;
}
