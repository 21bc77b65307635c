// The keys of signed certification bundles as the command line takes them: a private key to sign with (rdx run and
// rdx report: --sign-key FILE, or RDX_SIGN_KEY holding the PEM text or a file name) and a publisher's public key to
// check with (rdx verify, rdx badge: --public-key FILE). A key's text never appears in a message.
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { signingKey, verifyingKey, type SigningKey } from '../../reporters/bundle.js';

/**
 * Whether a value given as a file name looks like key material instead (a PEM line, or a long run of base64, as a
 * key body pasted without its BEGIN/END lines is): such a value is never quoted.
 */
const looksLikeKey = (value: string): boolean => /-----|[\r\n]/.test(value) || /^[A-Za-z0-9+/=\s]{32,}$/.test(value);

/** The file's text; `where` names it in an error (a file name only where quoting it cannot quote a key). */
function readKeyFile(file: string, what: string, where: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`${where}: cannot read the ${what} (${code})`, 'RDX_ERR_KEY');
  }
}

/** The key to sign the bundle with, from --sign-key or RDX_SIGN_KEY; undefined when neither is given. */
export function signKeyFrom(argv: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): SigningKey | undefined {
  const flag = argv['signKey'];
  if (typeof flag === 'string' && flag !== '') {
    const where = looksLikeKey(flag) ? '--sign-key (not quoted: it looks like key text, not a file name)' : `--sign-key ${flag}`;
    return signingKey(readKeyFile(flag, 'signing key', where), where);
  }
  const value = env['RDX_SIGN_KEY'];
  if (!value) return undefined;
  // A CI secret holds the PEM text itself; a local setup may name a file. Either way its value is a secret: no
  // message quotes it (a key body pasted without its BEGIN/END lines would otherwise be read as a file name and
  // printed whole).
  if (/-----BEGIN /.test(value)) return signingKey(value, 'RDX_SIGN_KEY');
  const hint = looksLikeKey(value) ? ' RDX_SIGN_KEY looks like a key without its -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines: give the whole PEM text, or the name of its file.' : '';
  try {
    return signingKey(readKeyFile(value, 'signing key', 'RDX_SIGN_KEY (its value, a file name or key text, is not shown)'), 'RDX_SIGN_KEY (the file it names)');
  } catch (error) {
    throw new UsageError(`${(error as Error).message}${hint}`, 'RDX_ERR_KEY');
  }
}

/** The publisher's public key from --public-key; undefined when not given. */
export function publicKeyFrom(argv: Record<string, unknown>): KeyObject | undefined {
  const file = argv['publicKey'];
  if (typeof file !== 'string' || file === '') return undefined;
  const where = looksLikeKey(file) ? '--public-key (not quoted: it looks like key text, not a file name)' : `--public-key ${file}`;
  return verifyingKey(readKeyFile(file, 'public key', where), where);
}
