// The keys of signed certification bundles as the command line takes them: a private key to sign with (rdx run and
// rdx report: --sign-key FILE, or RDX_SIGN_KEY holding the PEM text or a file name) and a publisher's public key to
// check with (rdx verify, rdx badge: --public-key FILE). A key's text never appears in a message.
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { signingKey, verifyingKey, type SigningKey } from '../../reporters/bundle.js';

function readKeyFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The key to sign the bundle with, from --sign-key or RDX_SIGN_KEY; undefined when neither is given. */
export function signKeyFrom(argv: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): SigningKey | undefined {
  const flag = argv['signKey'];
  if (typeof flag === 'string' && flag !== '') return signingKey(readKeyFile(flag, 'signing key'), `--sign-key ${flag}`);
  const value = env['RDX_SIGN_KEY'];
  if (!value) return undefined;
  // A CI secret holds the PEM text itself; a local setup may name a file.
  return /-----BEGIN /.test(value) ? signingKey(value, 'RDX_SIGN_KEY') : signingKey(readKeyFile(value, 'signing key (RDX_SIGN_KEY)'), `RDX_SIGN_KEY (${value})`);
}

/** The publisher's public key from --public-key; undefined when not given. */
export function publicKeyFrom(argv: Record<string, unknown>): KeyObject | undefined {
  const file = argv['publicKey'];
  if (typeof file !== 'string' || file === '') return undefined;
  return verifyingKey(readKeyFile(file, 'public key'), `--public-key ${file}`);
}
