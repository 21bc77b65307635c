// The certification bundle as rdx and the programmatic API both use it: writing one (rdx run/report --bundle,
// createBundle), checking one file against what its publisher published with the exit code rdx verify gives
// (rdx verify, rdx badge, verifyBundle), and writing a key pair to sign with (rdx keygen, writeKeyPair). One home,
// so the API's answer and the command's are the same by construction.
import type { KeyObject } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EXIT, UsageError, type ExitCode } from '../errors.js';
import type { Signer } from '../core/report.js';
import { newKeyPair, readBundleFile, verifyBundle, type SigningKey, type Verification } from './bundle.js';
import { writeReportFiles } from './files.js';
import type { Report } from './merge.js';

/** A bundle's check and the exit code rdx verify gives for it. */
export type BundleCheck = Verification & { exitCode: ExitCode };

/**
 * What rdx verify exits with: 0 verified against a pinned hash or a signature; 5 integrity only; 1 a file, the
 * pinned hash or the signature does not match; 2 malformed (docs/exit-codes.md).
 */
export function verificationExitCode(v: Verification): ExitCode {
  if (v.status === 'malformed') return EXIT.USAGE;
  if (v.status === 'mismatch') return EXIT.MUST_FAILED;
  return v.trust === 'integrity' ? EXIT.INTEGRITY_ONLY : EXIT.OK;
}

/** Reads bundle.tar.gz (a UsageError naming it when it cannot be read) and checks it against the anchors given. */
export function checkBundleFile(file: string, anchors: { publicKey?: KeyObject; manifestSha256?: string } = {}): BundleCheck {
  const verification = verifyBundle(readBundleFile(file), anchors);
  return { ...verification, exitCode: verificationExitCode(verification) };
}

/** A bundle written: where, the archive's SHA-256, the manifest's (the value to publish to pin it), and its signer. */
export interface WrittenBundle {
  file: string;
  sha256: string;
  manifestSha256: string;
  signer?: Signer;
}

/** Writes DIR/bundle.tar.gz of a report (its report.json, junit.xml, report.html, profile.json), signed when a key is given. */
export function writeBundle(report: Report, dir: string, signWith?: SigningKey, now = new Date()): WrittenBundle {
  let written;
  try {
    written = writeReportFiles(report, dir, { bundle: true, ...(signWith ? { signWith } : {}) }, now);
  } catch (error) {
    throw new UsageError(`${dir}: cannot write the bundle (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'RDX_ERR_WRITE');
  }
  const bundle = written.bundle as NonNullable<typeof written.bundle>;
  return { ...bundle, ...(signWith ? { signer: signWith.signer } : {}) };
}

/** Key files written by writeKeyPair. */
export interface WrittenKeyPair {
  /** The private key (PEM, mode 600): keep it secret. */
  privateKeyFile: string;
  /** The public key (PEM): publish it. */
  publicKeyFile: string;
  /** "SHA256:<hex>" of the public key, as a signed bundle names its signer. */
  fingerprint: string;
}

/**
 * Writes a new Ed25519 key pair: `out` (the private key, mode 600) and `out.pub`. Refuses an existing file unless
 * `force`; even then each is a new file renamed over the old one, never written through it.
 */
export function writeKeyPair(out: string, options: { force?: boolean } = {}): WrittenKeyPair {
  const pub = `${out}.pub`;
  for (const file of [out, pub]) {
    if (present(file) && options.force !== true) throw new UsageError(`${file} exists: give another --out, or --force to replace it (a bundle signed with the old key then no longer matches the new public key)`, 'RDX_ERR_WRITE');
  }
  const keys = newKeyPair();
  writeNew(out, keys.privateKey, 0o600);
  writeNew(pub, keys.publicKey, 0o644);
  return { privateKeyFile: out, publicKeyFile: pub, fingerprint: keys.fingerprint };
}

/** Whether anything is at the path, a dangling symbolic link included. */
function present(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a new file and renames it over `file`: created exclusively under an unpredictable name beside it, with its
 * mode set before a byte of the key is in it, so --force never writes through an existing file (another user's,
 * or one hard-linked elsewhere) or a symbolic link planted at its name; the link itself is replaced.
 */
function writeNew(file: string, text: string, mode: number): void {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', mode);
    // The mode open() gives is narrowed by the umask: set it exactly.
    fchmodSync(fd, mode);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw new UsageError(`${file}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'RDX_ERR_WRITE');
  }
}
