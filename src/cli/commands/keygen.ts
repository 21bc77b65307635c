// rdx keygen: an Ed25519 key pair for signing certification bundles (rdx run --bundle --sign-key). The private key
// is written with owner-only permissions and never printed; the public key and its fingerprint are for publishing.
// The writing itself is writeKeyPair (src/reporters/certify.ts), which the programmatic API exports too.
import type { Argv } from 'yargs';
import { EXIT } from '../../errors.js';
import { writeKeyPair } from '../../reporters/certify.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx keygen [options]\n\nWrites an Ed25519 key pair for signing certification bundles: FILE (the private key, mode 600: keep it secret, e.g. as the CI secret RDX_SIGN_KEY) and FILE.pub (the public key: publish it where readers of your bundles find it).')
    .option('out', { alias: 'o', type: 'string', default: 'rdx-signing-key.pem', describe: 'The private key file; the public key goes to the same name with .pub' })
    .option('force', { type: 'boolean', describe: 'Replace existing key files (new files renamed over them; an existing file or link is never written through)' })
    .example('rdx keygen --out keys/rdx.pem', 'Write keys/rdx.pem and keys/rdx.pem.pub');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const out = String(argv['out'] ?? 'rdx-signing-key.pem');
  const keys = writeKeyPair(out, { force: argv['force'] === true });
  process.stdout.write(`Private key: ${out} (keep it secret; sign with rdx run --bundle --sign-key ${out}, or RDX_SIGN_KEY)\n`);
  process.stdout.write(`Public key:  ${keys.publicKeyFile} (publish it; readers check with rdx verify BUNDLE --public-key ${keys.publicKeyFile})\n`);
  process.stdout.write(`Fingerprint: ${keys.fingerprint}\n`);
  return EXIT.OK;
}
