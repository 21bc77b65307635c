// rdx badge: an SVG badge of a run's verdict (summary.verdict as the report states it), from a report.json or a
// certification bundle. A bundle is checked as rdx verify checks it: one that does not match gets no badge, and one
// checked for integrity only (no --public-key, no --manifest-sha256) gets its badge with exit 5, as rdx verify.
import type { Argv } from 'yargs';
import { writeFileSync } from 'node:fs';
import { EXIT, UsageError } from '../../errors.js';
import { reportBadge } from '../../reporters/badge.js';
import { INTEGRITY_ONLY, isGzipFile } from '../../reporters/bundle.js';
import { readRun } from '../../reporters/diff.js';
import { escapeTerminal } from '../../core/terminal.js';
import { VERDICT_WORDS } from '../../core/verdict.js';
import { checkBundle } from './verify.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx badge <report.json | bundle.tar.gz> [options]\n\nWrites an SVG badge (CONFORMANT, INCOMPLETE, KNOWN FAILURES or NOT CONFORMANT, with the harness version and the spec hash). A bundle is checked as rdx verify checks it: one that does not match gets no badge (exit 1); without --public-key or --manifest-sha256 the check is integrity only, said so, and the exit code is 5.')
    .positional('report', { type: 'string', describe: 'report.json, or bundle.tar.gz written by rdx run --bundle' })
    .option('out', { alias: 'o', type: 'string', default: 'rdx-badge.svg', describe: 'The SVG file to write' })
    .option('stdout', { type: 'boolean', describe: 'Print the SVG on stdout instead of writing a file' })
    .option('public-key', { type: 'string', describe: 'For a bundle: the publisher\'s public key; its signature must hold' })
    .option('manifest-sha256', { type: 'string', describe: 'For a bundle: the published SHA-256 of its manifest.json' })
    .example('rdx badge reports/latest/bundle.tar.gz --public-key vendor-rdx.pub --out public/rdx.svg', 'A badge for a status page, from a signed bundle');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const file = typeof argv['report'] === 'string' ? argv['report'] : '';
  if (!file) throw new UsageError('rdx badge: name a report.json or a bundle.tar.gz');
  let trust: 'integrity' | 'anchored' | 'report' = 'report';
  if (isGzipFile(file)) {
    const checked = checkBundle(file, argv);
    if (checked.status === 'malformed') throw new UsageError(`${file}: malformed bundle: ${checked.problem}`, 'RDX_ERR_BUNDLE');
    if (checked.status === 'mismatch') {
      for (const p of checked.problems) process.stderr.write(`MISMATCH ${escapeTerminal(p)}\n`);
      process.stderr.write(`rdx badge: ${escapeTerminal(file)}: does not match (rdx verify ${escapeTerminal(file)} says more); no badge written\n`);
      return EXIT.MUST_FAILED;
    }
    trust = checked.trust === 'integrity' ? 'integrity' : 'anchored';
  } else if (argv['publicKey'] !== undefined || argv['manifestSha256'] !== undefined) {
    throw new UsageError('rdx badge: --public-key and --manifest-sha256 check a bundle; a report.json carries no signature');
  }
  const report = readRun(file);
  const svg = reportBadge(report);
  const out = String(argv['out'] ?? 'rdx-badge.svg');
  const code = trust === 'integrity' ? EXIT.INTEGRITY_ONLY : EXIT.OK;
  if (trust === 'integrity') process.stderr.write(`rdx badge: ${INTEGRITY_ONLY}\n`);
  if (argv['stdout'] === true) {
    process.stdout.write(svg);
    return code;
  }
  try {
    writeFileSync(out, svg);
  } catch (error) {
    throw new UsageError(`${out}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'RDX_ERR_WRITE');
  }
  process.stdout.write(`${VERDICT_WORDS[report.summary.verdict]}: badge written to ${escapeTerminal(out)}\n`);
  return code;
}
