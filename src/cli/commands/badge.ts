// rdx badge: an SVG badge of a run's verdict, from a report.json or a certification bundle whose hashes hold.
import type { Argv } from 'yargs';
import { writeFileSync } from 'node:fs';
import { EXIT, UsageError } from '../../errors.js';
import { reportBadge } from '../../reporters/badge.js';
import { readRun } from '../../reporters/diff.js';
import { runVerdict, VERDICT_WORDS } from '../../reporters/verdict.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx badge <report.json | bundle.tar.gz> [options]\n\nWrites an SVG badge (CONFORMANT, INCOMPLETE, KNOWN FAILURES or NOT CONFORMANT, with the harness version and the spec hash). A bundle is checked against its manifest first; a bundle that does not match gets no badge.')
    .positional('report', { type: 'string', describe: 'report.json, or bundle.tar.gz written by rdx run --bundle' })
    .option('out', { alias: 'o', type: 'string', default: 'rdx-badge.svg', describe: 'The SVG file to write' })
    .option('stdout', { type: 'boolean', describe: 'Print the SVG on stdout instead of writing a file' })
    .example('rdx badge reports/latest/bundle.tar.gz --out public/rdx.svg', 'A badge for a status page');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const file = typeof argv['report'] === 'string' ? argv['report'] : '';
  if (!file) throw new UsageError('rdx badge: name a report.json or a bundle.tar.gz');
  const report = readRun(file);
  const svg = reportBadge(report);
  const out = String(argv['out'] ?? 'rdx-badge.svg');
  if (argv['stdout'] === true) {
    process.stdout.write(svg);
    return EXIT.OK;
  }
  try {
    writeFileSync(out, svg);
  } catch (error) {
    throw new UsageError(`${out}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  process.stdout.write(`${VERDICT_WORDS[runVerdict(report)]}: badge written to ${out}\n`);
  return EXIT.OK;
}
