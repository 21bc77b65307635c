// `npm run bench`: every benchmark section in turn, each printing its tables. Add a section by exporting a
// BenchSection and listing it in SECTIONS; `npm run bench -- NAME…` runs only the named sections.
import { pathToFileURL } from 'node:url';
import type { BenchSection, Table } from './run.js';
import { harnessSection } from './harness.js';
import { phasesSection } from './phases.js';
import { simulatorSection } from './simulator.js';
import { soakSection } from './soak.js';
import { stateSection } from './state.js';

export type { BenchSection, Table } from './run.js';

export const SECTIONS: BenchSection[] = [simulatorSection, harnessSection, phasesSection, soakSection, stateSection];

export function formatTable(table: Table): string {
  const cells = [table.columns, ...table.rows.map((r) => r.map(String))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  return [
    `### ${table.title}`,
    '',
    line(table.columns),
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...table.rows.map((r) => line(r.map(String))),
    ...(table.notes?.length ? ['', ...table.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
}

export async function main(names: string[]): Promise<number> {
  const unknown = names.filter((n) => !SECTIONS.some((s) => s.name === n));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}\n`);
    return 2;
  }
  process.stdout.write(`Node ${process.version}, ${(await import('node:os')).cpus().length} CPUs\n\n`);
  for (const section of SECTIONS.filter((s) => names.length === 0 || names.includes(s.name))) {
    for (const table of await section.run()) process.stdout.write(`${formatTable(table)}\n`);
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  }, (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exitCode = 1;
  });
}
