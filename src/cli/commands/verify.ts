// rdx verify: recomputes every hash of a certification bundle offline. Exit 0 when all match, 1 naming each file
// that does not, 2 when the bundle is malformed (not gzip, broken tar, no or bad manifest).
import type { Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { EXIT, UsageError } from '../../errors.js';

/** Exit code when a file does not match its manifest entry (the bundle is well formed but not to be trusted). */
const MISMATCH = 1;
import { verifyBundle } from '../../reporters/bundle.js';
import { escapeTerminal } from '../../reporters/terminal.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx verify <bundle.tar.gz>\n\nChecks a certification bundle offline: every file against the SHA-256 in its manifest.json.\nExit 0: all match. Exit 1: a file differs, is missing or is not listed. Exit 2: the bundle is malformed.')
    .positional('bundle', { type: 'string', describe: 'bundle.tar.gz written by rdx run --bundle or rdx report --bundle' })
    .option('manifest-sha256', { type: 'string', describe: 'Also require manifest.json to have this SHA-256 (the value published with the bundle)' })
    .example('rdx verify reports/latest/bundle.tar.gz', 'Check a bundle');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const file = String(argv['bundle'] ?? '');
  let archive: Buffer;
  try {
    archive = readFileSync(file);
  } catch (error) {
    throw new UsageError(`${file}: cannot read the bundle (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const result = verifyBundle(archive);
  if (result.status === 'malformed') {
    process.stderr.write(`rdx verify: ${file}: malformed bundle: ${result.problem}\n`);
    return EXIT.USAGE;
  }
  const problems = result.status === 'mismatch' ? [...result.problems] : [];
  const pinned = typeof argv['manifestSha256'] === 'string' ? argv['manifestSha256'].trim().toLowerCase() : undefined;
  if (pinned && pinned !== result.manifestSha256) problems.push(`manifest.json: SHA-256 is ${result.manifestSha256}, expected ${pinned}`);
  const m = result.manifest;
  const verdict = m.run?.verdict ? `, verdict ${m.run.verdict}${m.run.unjudgedMust ? ` (${m.run.unjudgedMust} MUST case(s) not judged)` : ''}` : '';
  const about = `harness ${m.harness.version}, spec ${m.spec.hash.slice(0, 12)}, run ${m.run?.id ?? '?'}${verdict}, created ${m.createdAt}`;
  if (problems.length) {
    for (const p of problems) process.stderr.write(`MISMATCH ${escapeTerminal(p)}\n`);
    process.stderr.write(`rdx verify: ${file}: ${problems.length} problem(s); do not trust this bundle (${about})\n`);
    return MISMATCH;
  }
  for (const f of m.files) process.stdout.write(`ok ${f.sha256}  ${f.name}\n`);
  process.stdout.write(`verified: ${m.files.length} file(s) match manifest.json (sha256 ${result.manifestSha256}); ${about}\n`);
  return EXIT.OK;
}
