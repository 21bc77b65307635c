// rdx verify: checks a certification bundle offline: every file against its manifest, and the manifest against what
// the publisher published (its SHA-256, or its signature with their public key). Exit codes (docs/exit-codes.md):
// 0 verified against a pinned hash or a signature; 5 integrity only (the bundle agrees with itself, nothing says it
// is the one published); 1 a file, the pinned hash or the signature does not match; 2 malformed, or bad usage.
import type { Argv } from 'yargs';
import { INTEGRITY_ONLY } from '../../reporters/bundle.js';
import { checkBundleFile, type BundleCheck } from '../../reporters/certify.js';
import { escapeTerminal } from '../../core/terminal.js';
import { VERDICT_WORDS } from '../../core/verdict.js';
import { publicKeyFrom } from './signing.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx verify <bundle.tar.gz> [--public-key FILE | --manifest-sha256 HASH]\n\nChecks a certification bundle offline: every file against the SHA-256 in its manifest.json, and manifest.json against what its publisher published: their public key (the signature manifest.sig) or the manifest\'s SHA-256.\nExit 0: verified against the key or the hash. Exit 5: integrity only (neither given: the bundle agrees with itself, which anyone who edits it can arrange). Exit 1: a file, the hash or the signature does not match. Exit 2: the bundle is malformed.')
    .positional('bundle', { type: 'string', describe: 'bundle.tar.gz written by rdx run --bundle or rdx report --bundle' })
    .option('public-key', { type: 'string', describe: 'The publisher\'s Ed25519 public key (PEM, the .pub of rdx keygen): the bundle\'s signature must hold for it' })
    .option('manifest-sha256', { type: 'string', describe: 'Require manifest.json to have this SHA-256 (the value published with the bundle)' })
    .example('rdx verify bundle.tar.gz --public-key vendor-rdx.pub', 'Check a signed bundle with the key its publisher published')
    .example('rdx verify bundle.tar.gz --manifest-sha256 3f9a…', 'Check a bundle against its published manifest hash');
}

/** Reads and checks a bundle against the anchors of argv (--public-key, --manifest-sha256), with its exit code. */
export function checkBundle(file: string, argv: Record<string, unknown>): BundleCheck {
  const publicKey = publicKeyFrom(argv);
  const pinned = typeof argv['manifestSha256'] === 'string' ? argv['manifestSha256'] : undefined;
  return checkBundleFile(file, { ...(publicKey ? { publicKey } : {}), ...(pinned !== undefined ? { manifestSha256: pinned } : {}) });
}

// Everything printed comes from the bundle (names, manifest fields, problems naming them): a line reaches the
// terminal only through escapeTerminal, so a bundle that fails cannot redraw the screen to read "verified".
const out = (text: string): void => void process.stdout.write(`${escapeTerminal(text, { keepNewlines: true })}\n`);
const err = (text: string): void => void process.stderr.write(`${escapeTerminal(text, { keepNewlines: true })}\n`);

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const file = String(argv['bundle'] ?? '');
  const result = checkBundle(file, argv);
  if (result.status === 'malformed') {
    err(`rdx verify: ${file}: malformed bundle: ${escapeTerminal(result.problem)}`);
    return result.exitCode;
  }
  const m = result.manifest;
  const verdict = `, verdict ${VERDICT_WORDS[m.run.verdict]}${m.run.unjudgedMust ? ` (${m.run.unjudgedMust} MUST case(s) not judged)` : ''}`;
  const about = `harness ${escapeTerminal(m.harness.version)}, spec ${escapeTerminal(m.spec.hash.slice(0, 12))}, run ${escapeTerminal(m.run.id)}${verdict}, created ${escapeTerminal(m.createdAt)}`;
  if (result.status === 'mismatch') {
    for (const p of result.problems) err(`MISMATCH ${escapeTerminal(p)}`);
    err(`rdx verify: ${file}: ${result.problems.length} problem(s); do not trust this bundle (${about})`);
    return result.exitCode;
  }
  for (const f of m.files) out(`ok ${f.sha256}  ${escapeTerminal(f.name)}`);
  const by = result.trust === 'signed' ? `; signature by ${escapeTerminal(m.signer?.fingerprint ?? '')} holds`
    : result.trust === 'pinned' ? '; manifest.json has the pinned SHA-256' : '';
  const line = `${m.files.length} file(s) match manifest.json (sha256 ${result.manifestSha256})${by}; ${about}`;
  if (result.trust === 'integrity') {
    out(`${INTEGRITY_ONLY}\n${line}${m.signer ? `\nThe bundle says it is signed by ${escapeTerminal(m.signer.fingerprint)}: check it with --public-key and that key's published file.` : ''}`);
    return result.exitCode;
  }
  out(`verified: ${line}`);
  return result.exitCode;
}
