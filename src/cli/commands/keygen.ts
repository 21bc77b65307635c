// rdx keygen: an Ed25519 key pair for signing certification bundles (rdx run --bundle --sign-key). The private key
// is written with owner-only permissions and never printed; the public key and its fingerprint are for publishing.
import type { Argv } from 'yargs';
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EXIT, UsageError } from '../../errors.js';
import { newKeyPair } from '../../reporters/bundle.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx keygen [options]\n\nWrites an Ed25519 key pair for signing certification bundles: FILE (the private key, mode 600: keep it secret, e.g. as the CI secret RDX_SIGN_KEY) and FILE.pub (the public key: publish it where readers of your bundles find it).')
    .option('out', { alias: 'o', type: 'string', default: 'rdx-signing-key.pem', describe: 'The private key file; the public key goes to the same name with .pub' })
    .option('force', { type: 'boolean', describe: 'Replace existing key files (new files renamed over them; an existing file or link is never written through)' })
    .example('rdx keygen --out keys/rdx.pem', 'Write keys/rdx.pem and keys/rdx.pem.pub');
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

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const out = String(argv['out'] ?? 'rdx-signing-key.pem');
  const pub = `${out}.pub`;
  for (const file of [out, pub]) {
    if (present(file) && argv['force'] !== true) throw new UsageError(`${file} exists: give another --out, or --force to replace it (a bundle signed with the old key then no longer matches the new public key)`, 'RDX_ERR_WRITE');
  }
  const keys = newKeyPair();
  writeNew(out, keys.privateKey, 0o600);
  writeNew(pub, keys.publicKey, 0o644);
  process.stdout.write(`Private key: ${out} (keep it secret; sign with rdx run --bundle --sign-key ${out}, or RDX_SIGN_KEY)\n`);
  process.stdout.write(`Public key:  ${pub} (publish it; readers check with rdx verify BUNDLE --public-key ${pub})\n`);
  process.stdout.write(`Fingerprint: ${keys.fingerprint}\n`);
  return EXIT.OK;
}
