// rdx keygen: an Ed25519 key pair for signing certification bundles (rdx run --bundle --sign-key). The private key
// is written with owner-only permissions and never printed; the public key and its fingerprint are for publishing.
import type { Argv } from 'yargs';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { EXIT, UsageError } from '../../errors.js';
import { newKeyPair } from '../../reporters/bundle.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx keygen [options]\n\nWrites an Ed25519 key pair for signing certification bundles: FILE (the private key, mode 600: keep it secret, e.g. as the CI secret RDX_SIGN_KEY) and FILE.pub (the public key: publish it where readers of your bundles find it).')
    .option('out', { alias: 'o', type: 'string', default: 'rdx-signing-key.pem', describe: 'The private key file; the public key goes to the same name with .pub' })
    .option('force', { type: 'boolean', describe: 'Overwrite existing key files' })
    .example('rdx keygen --out keys/rdx.pem', 'Write keys/rdx.pem and keys/rdx.pem.pub');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const out = String(argv['out'] ?? 'rdx-signing-key.pem');
  const pub = `${out}.pub`;
  for (const file of [out, pub]) {
    if (existsSync(file) && argv['force'] !== true) throw new UsageError(`${file} exists: give another --out, or --force to overwrite it (a bundle signed with the old key then no longer matches the new public key)`);
  }
  const keys = newKeyPair();
  const write = (file: string, text: string, mode: number): void => {
    try {
      writeFileSync(file, text, { mode });
      // An existing file (--force) keeps its mode unless it is set again.
      chmodSync(file, mode);
    } catch (error) {
      throw new UsageError(`${file}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  };
  write(out, keys.privateKey, 0o600);
  write(pub, keys.publicKey, 0o644);
  process.stdout.write(`Private key: ${out} (keep it secret; sign with rdx run --bundle --sign-key ${out}, or RDX_SIGN_KEY)\n`);
  process.stdout.write(`Public key:  ${pub} (publish it; readers check with rdx verify BUNDLE --public-key ${pub})\n`);
  process.stdout.write(`Fingerprint: ${keys.fingerprint}\n`);
  return EXIT.OK;
}
