// rdx verify: checks a certification bundle offline: every file against its manifest, and the manifest against what
// the publisher published (its SHA-256, or its signature with their public key). Exit codes (docs/exit-codes.md):
// 0 verified against a pinned hash or a signature; 5 integrity only (the bundle agrees with itself, nothing says it
// is the one published); 1 a file, the pinned hash or the signature does not match; 2 malformed, or bad usage.
import type { Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { EXIT, UsageError } from '../../errors.js';
import { INTEGRITY_ONLY, verifyBundle, type Verification } from '../../reporters/bundle.js';
import { escapeTerminal } from '../../core/terminal.js';
import { VERDICT_WORDS } from '../../core/verdict.js';
import { publicKeyFrom } from './signing.js';

/** Exit code when a file does not match its manifest entry (the bundle is well formed but not to be trusted). */
const MISMATCH = 1;

export function builder(y: Argv): Argv {
  return y
    .usage('rdx verify <bundle.tar.gz> [--public-key FILE | --manifest-sha256 HASH]\n\nChecks a certification bundle offline: every file against the SHA-256 in its manifest.json, and manifest.json against what its publisher published: their public key (the signature manifest.sig) or the manifest\'s SHA-256.\nExit 0: verified against the key or the hash. Exit 5: integrity only (neither given: the bundle agrees with itself, which anyone who edits it can arrange). Exit 1: a file, the hash or the signature does not match. Exit 2: the bundle is malformed.')
    .positional('bundle', { type: 'string', describe: 'bundle.tar.gz written by rdx run --bundle or rdx report --bundle' })
    .option('public-key', { type: 'string', describe: 'The publisher\'s Ed25519 public key (PEM, the .pub of rdx keygen): the bundle\'s signature must hold for it' })
    .option('manifest-sha256', { type: 'string', describe: 'Require manifest.json to have this SHA-256 (the value published with the bundle)' })
    .example('rdx verify bundle.tar.gz --public-key vendor-rdx.pub', 'Check a signed bundle with the key its publisher published')
    .example('rdx verify bundle.tar.gz --manifest-sha256 3f9a…', 'Check a bundle against its published manifest hash');
}

/** Reads and checks a bundle against the anchors of argv (--public-key, --manifest-sha256). */
export function checkBundle(file: string, argv: Record<string, unknown>): Verification {
  let archive: Buffer;
  try {
    archive = readFileSync(file);
  } catch (error) {
    throw new UsageError(`${file}: cannot read the bundle (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const publicKey = publicKeyFrom(argv);
  const pinned = typeof argv['manifestSha256'] === 'string' ? argv['manifestSha256'] : undefined;
  return verifyBundle(archive, { ...(publicKey ? { publicKey } : {}), ...(pinned !== undefined ? { manifestSha256: pinned } : {}) });
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const file = String(argv['bundle'] ?? '');
  const result = checkBundle(file, argv);
  if (result.status === 'malformed') {
    process.stderr.write(`rdx verify: ${file}: malformed bundle: ${escapeTerminal(result.problem)}\n`);
    return EXIT.USAGE;
  }
  const m = result.manifest;
  const verdict = `, verdict ${VERDICT_WORDS[m.run.verdict] ?? escapeTerminal(String(m.run.verdict))}${m.run.unjudgedMust ? ` (${m.run.unjudgedMust} MUST case(s) not judged)` : ''}`;
  const about = escapeTerminal(`harness ${m.harness.version}, spec ${m.spec.hash.slice(0, 12)}, run ${m.run.id}`) + `${verdict}, created ${escapeTerminal(m.createdAt)}`;
  if (result.status === 'mismatch') {
    for (const p of result.problems) process.stderr.write(`MISMATCH ${escapeTerminal(p)}\n`);
    process.stderr.write(`rdx verify: ${file}: ${result.problems.length} problem(s); do not trust this bundle (${about})\n`);
    return MISMATCH;
  }
  for (const f of m.files) process.stdout.write(`ok ${f.sha256}  ${escapeTerminal(f.name)}\n`);
  const by = result.trust === 'signed' ? `; signature by ${escapeTerminal(m.signer?.fingerprint ?? '')} holds`
    : result.trust === 'pinned' ? '; manifest.json has the pinned SHA-256' : '';
  const line = `${m.files.length} file(s) match manifest.json (sha256 ${result.manifestSha256})${by}; ${about}`;
  if (result.trust === 'integrity') {
    process.stdout.write(`${INTEGRITY_ONLY}\n${line}${m.signer ? `\nThe bundle says it is signed by ${escapeTerminal(m.signer.fingerprint)}: check it with --public-key and that key's published file.` : ''}\n`);
    return EXIT.INTEGRITY_ONLY;
  }
  process.stdout.write(`verified: ${line}\n`);
  return EXIT.OK;
}
