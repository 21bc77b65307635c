// rdx report: renders report.html (and junit.xml, and a certification bundle) from one or more report.json files,
// merging the reports of shards into one.
import type { Argv } from 'yargs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { writeReportFiles, type ReportOutputs } from '../../reporters/files.js';
import { mergeReports } from '../../reporters/merge.js';
import { readReportFile } from '../../core/report.js';
import { verdictSummary } from '../../reporters/verdict.js';
import { exitCodeOf } from '../../core/verdict.js';
import { signKeyFrom } from './signing.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx report <report.json..> [options]\n\nRenders report.html (and junit.xml) from report.json files. Several files, e.g. the shards of one run (rdx run --shard i/n), are merged into one report first.')
    .positional('reports', { type: 'string', array: true, describe: 'report.json files' })
    .option('out', { type: 'string', describe: 'Where to write (default: beside the report for one file, ./reports/merged for several)' })
    .option('html', { type: 'boolean', describe: 'Write report.html (when neither --html nor --junit is given, both are written)' })
    .option('junit', { type: 'boolean', describe: 'Write junit.xml' })
    .option('bundle', { type: 'boolean', describe: 'Also write bundle.tar.gz: the reports, profile.json and a manifest of SHA-256 hashes (check it with rdx verify)' })
    .option('sign-key', { type: 'string', describe: 'Sign the bundle\'s manifest with this Ed25519 private key (PEM, from rdx keygen); env RDX_SIGN_KEY' })
    .option('allow-incomplete', { type: 'boolean', describe: 'Exit 0 when the (merged) report is INCOMPLETE, e.g. shards are missing, instead of 4' })
    .example('rdx report reports/latest/report.json', 'Render report.html and junit.xml beside it')
    .example('rdx report shard-*/report.json --out reports/merged --bundle', 'Merge the shards of a CI matrix into one report and bundle it');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const files = ((argv['reports'] as unknown[] | undefined) ?? []).map(String);
  if (files.length === 0) throw new UsageError('rdx report: name at least one report.json');
  if (argv['signKey'] !== undefined && argv['bundle'] !== true) throw new UsageError('--sign-key signs the certification bundle: add --bundle');
  const signWith = argv['bundle'] === true ? signKeyFrom(argv) : undefined;
  const budget = { used: 0 };
  const report = mergeReports(files.map((file) => ({ file, report: readReportFile(file, budget) })));
  const out = resolve(typeof argv['out'] === 'string' ? argv['out'] : files.length === 1 ? dirname(files[0] as string) : 'reports/merged');
  const neither = argv['html'] === undefined && argv['junit'] === undefined;
  const outputs: ReportOutputs = {
    // A single report rendered in its own folder is already there; anything else gets the (merged) report.json too.
    json: files.length > 1 || out !== resolve(dirname(files[0] as string)),
    html: neither || argv['html'] === true,
    junit: neither || argv['junit'] === true,
    bundle: argv['bundle'] === true,
    ...(signWith ? { signWith } : {}),
  };
  const written = writeReportFiles(report, out, outputs);
  if (files.length > 1) process.stderr.write(`Merged ${files.length} reports${report.missingShards?.length ? `; missing shard(s): ${report.missingShards.join(', ')}` : ''}\n`);
  process.stderr.write(`${verdictSummary(report.summary)}\n`);
  process.stderr.write(`Reports: ${written.files.join(', ')}\n`);
  if (written.bundle) process.stderr.write(`Bundle: ${written.bundle.file}\n  sha256 ${written.bundle.sha256}\n  manifest.json sha256 ${written.bundle.manifestSha256} (publish this to pin the bundle; rdx verify prints it)\n`);
  if (written.bundle && signWith) process.stderr.write(`  signed by ${signWith.signer.fingerprint}\n`);
  // The exit code of the verdict, as rdx run gives it: a gate may run on the merged report.
  return exitCodeOf(report.summary, argv['allowIncomplete'] === true);
}
