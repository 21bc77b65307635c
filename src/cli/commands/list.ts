// rdx list: the cases with id, level, clauses, endpoints and tier, after the same filters as rdx run; with --coverage,
// the clause × case and endpoint × case matrices of those cases instead.
import type { Argv } from 'yargs';
import { planCases } from '../../engine/plan.js';
import { computeCoverage, renderCoverageMarkdown, renderCoverageText } from '../../engine/coverage.js';
import { loadSuitesOrUsage } from './validate.js';
import { operations } from '../../spec/index.js';
import { filterOptions, filtersFrom } from './filters.js';

export function builder(y: Argv): Argv {
  return filterOptions(y)
    .usage('rdx list [filters]\n\nLists the cases that rdx run would run with the same filters.')
    .option('json', { type: 'boolean', describe: 'Print JSON instead of a table' })
    .option('coverage', { type: 'boolean', describe: 'Print which cases verify each clause and call each endpoint, and the totals' })
    .option('markdown', { type: 'boolean', describe: 'With --coverage: print the Markdown of suites/COVERAGE.md' });
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const all = loadSuitesOrUsage();
  const filters = filtersFrom(argv, (n) => operations().find((o) => o.operationId === n)?.endpoint);
  const plan = planCases(all, filters);
  if (argv['coverage']) {
    // File order, not run order: the matrices must not move when a prerequisite is pulled forward. Without filters,
    // every case of the suites, opt-in ones (--tag large) included: the coverage is the suites'.
    const unfiltered = Object.values(filters).every((v) => v === undefined || v === false || (Array.isArray(v) && v.length === 0));
    const chosen = new Set(plan.cases.map((c) => c.id));
    const cases = unfiltered ? all : all.filter((c) => chosen.has(c.id));
    const coverage = computeCoverage(cases);
    if (argv['json']) process.stdout.write(`${JSON.stringify(coverage, null, 2)}\n`);
    else if (argv['markdown']) process.stdout.write(renderCoverageMarkdown(coverage, cases));
    else process.stdout.write(renderCoverageText(coverage, cases));
    return 0;
  }
  const rows = plan.cases.map((c) => ({
    id: c.id, level: c.level, tier: c.tier, endpoints: c.endpoints, clauses: c.clauses, tags: c.tags, file: `${c.file}:${c.line}`,
    ...(plan.pulledIn.has(c.id) ? { pulledIn: true } : {}),
  }));
  if (argv['json']) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.id.length), 2);
  process.stdout.write(`${'ID'.padEnd(width)}  LEVEL    TIER          ENDPOINTS     CLAUSES\n`);
  for (const r of rows) {
    process.stdout.write(`${r.id.padEnd(width)}  ${r.level.padEnd(7)}  ${r.tier.padEnd(12)}  ${r.endpoints.join(',').padEnd(12)}  ${r.clauses.join(' ')}${r.pulledIn ? '  (prerequisite)' : ''}\n`);
  }
  const by = (k: 'level' | 'tier'): string => Object.entries(rows.reduce<Record<string, number>>((m, r) => ({ ...m, [r[k]]: (m[r[k]] ?? 0) + 1 }), {})).map(([a, n]) => `${n} ${a}`).join(', ');
  const endpoints = new Set(rows.flatMap((r) => r.endpoints));
  process.stdout.write(`\n${rows.length} case(s): ${by('level')}; ${by('tier')}; endpoints covered ${endpoints.size}/21\n`);
  return 0;
}
