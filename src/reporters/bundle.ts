// The certification bundle: the reports of one run and a manifest of their SHA-256 hashes in one bundle.tar.gz,
// which anyone can check offline with `rdx verify`. The hashes show only that the bundle agrees with itself: anyone
// can edit a report and hash the manifest again. What ties a bundle to its publisher is either the manifest's own
// hash, published through another channel (rdx verify --manifest-sha256), or an Ed25519 signature of the manifest
// (manifest.sig, rdx run --sign-key) checked with the publisher's public key (rdx verify --public-key).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { closeSync, openSync, readSync, statSync, readFileSync } from 'node:fs';
import { parseReport, RUN_VERDICTS, type RunReport as Report, type RunVerdict, type Signer } from '../core/report.js';
import { UsageError } from '../errors.js';
import { tarPack, tarUnpack, TarError, type TarEntry } from './tar.js';

export const MANIFEST = 'manifest.json';
/** The Ed25519 signature of manifest.json's bytes, base64, when the bundle is signed. */
export const SIGNATURE = 'manifest.sig';
/**
 * Bounds on a bundle, far above any real one (five files, a few MiB): a crafted one is refused before it can take
 * the machine's memory or time. A gzip bomb stops at MAX_UNPACKED_BYTES, an archive of many entries at
 * MAX_BUNDLE_ENTRIES, a manifest.json past MAX_MANIFEST_BYTES is not parsed; report.json has the bounds of
 * parseReport (src/core/report.ts).
 */
export const MAX_BUNDLE_BYTES = 128 * 2 ** 20;
export const MAX_UNPACKED_BYTES = 256 * 2 ** 20;
export const MAX_BUNDLE_ENTRIES = 64;
export const MAX_MANIFEST_BYTES = 2 ** 20;

export interface Manifest {
  format: 'rdx-bundle/1';
  harness: { name: string; version: string };
  spec: { hash: string };
  /** The run's verdict; conformant is true only for CONFORMANT. */
  run: { id: string; target: string; conformant: boolean; verdict: RunVerdict; unjudgedMust: number };
  createdAt: string;
  files: { name: string; bytes: number; sha256: string }[];
  /** The key that signed manifest.json (manifest.sig), when it is signed. */
  signer?: Signer;
}

export const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** "SHA256:<hex>" of the public key's DER (SPKI) bytes: what a reader compares with the key the publisher published. */
export function keyFingerprint(publicKey: KeyObject): string {
  return `SHA256:${sha256Hex(publicKey.export({ type: 'spki', format: 'der' }))}`;
}

/** A new Ed25519 key pair as PEM text (rdx keygen): the private key signs bundles, the public one is published. */
export function newKeyPair(): { privateKey: string; publicKey: string; fingerprint: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: keyFingerprint(publicKey),
  };
}

/** A signing key for bundles: the private key and the signer it writes into the report and the manifest. */
export interface SigningKey {
  privateKey: KeyObject;
  signer: Signer;
}

/**
 * Reads an Ed25519 private key from PEM text. `where` names its source (a file, RDX_SIGN_KEY) in the error; the
 * text itself never appears in a message.
 */
export function signingKey(pem: string, where: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new UsageError(`${where}: not a private key in PEM form (write one with rdx keygen)`, 'RDX_ERR_KEY');
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new UsageError(`${where}: an ${String(privateKey.asymmetricKeyType)} key; bundles are signed with Ed25519 (rdx keygen)`, 'RDX_ERR_KEY');
  return { privateKey, signer: { algorithm: 'Ed25519', fingerprint: keyFingerprint(createPublicKey(privateKey)) } };
}

/** Reads an Ed25519 public key from PEM text; `where` names its source in the error. */
export function verifyingKey(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new UsageError(`${where}: not a public key in PEM form (the publisher's rdx keygen writes one)`, 'RDX_ERR_KEY');
  }
  // A private key given by mistake yields its public key: refuse it, so the private key is not passed around.
  if (key.type !== 'public' || /PRIVATE KEY/.test(pem)) throw new UsageError(`${where}: a private key; give the public key (the .pub file of rdx keygen), and keep the private one secret`, 'RDX_ERR_KEY');
  if (key.asymmetricKeyType !== 'ed25519') throw new UsageError(`${where}: an ${String(key.asymmetricKeyType)} key; bundles are signed with Ed25519`, 'RDX_ERR_KEY');
  return key;
}

/** The bundle's files: the given ones, then the manifest of their hashes, then its signature when a key is given. */
export function bundleEntries(report: Report, files: TarEntry[], createdAt: Date, key?: SigningKey): TarEntry[] {
  const manifest: Manifest = {
    format: 'rdx-bundle/1',
    harness: { name: report.harness.name, version: report.harness.version },
    spec: { hash: report.spec.hash },
    run: {
      id: report.run.id, target: report.run.target.baseUrl, conformant: report.summary.conformant,
      verdict: report.summary.verdict, unjudgedMust: report.summary.unjudgedMust,
    },
    createdAt: createdAt.toISOString(),
    files: files.map((f) => ({ name: f.name, bytes: f.data.length, sha256: sha256Hex(f.data) })),
    ...(key ? { signer: key.signer } : {}),
  };
  const data = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const signature = key ? [{ name: SIGNATURE, data: Buffer.from(`${sign(null, data, key.privateKey).toString('base64')}\n`) }] : [];
  return [...files, { name: MANIFEST, data }, ...signature];
}

export function packBundle(entries: TarEntry[], createdAt: Date): Buffer {
  // mtime 0 in the gzip header: the same files give the same bytes.
  return gzipSync(tarPack(entries, createdAt), { level: 9 });
}

/**
 * How far a bundle is known to be the one published: `signed` (its signature holds for the public key given),
 * `pinned` (its manifest has the SHA-256 given), or only `integrity` (it agrees with itself, which anyone who edits
 * it can make true again).
 */
export type Trust = 'signed' | 'pinned' | 'integrity';

export type Verification =
  | { status: 'ok'; manifest: Manifest; manifestSha256: string; trust: Trust; report?: Report }
  | { status: 'mismatch'; manifest: Manifest; manifestSha256: string; problems: string[] }
  | { status: 'malformed'; problem: string };

/** What a bundle must be checked against to be more than self-consistent. */
export interface Anchors {
  /** The manifest's SHA-256, as the publisher published it. */
  manifestSha256?: string;
  /** The publisher's public key. */
  publicKey?: KeyObject;
}

/** The words rdx verify and rdx badge print when neither a pinned hash nor a public key was given. */
export const INTEGRITY_ONLY = 'integrity only: the bundle agrees with itself; pin its manifest hash or check its signature to know it is the one that was published';

/** A bundle's bytes, refused unread past MAX_BUNDLE_BYTES; problems name the file (exit 2). */
export function readBundleFile(file: string): Buffer {
  try {
    const size = statSync(file).size;
    if (size > MAX_BUNDLE_BYTES) throw new UsageError(`${file}: ${size} bytes, more than a bundle can be (${MAX_BUNDLE_BYTES / 2 ** 20} MiB); not read`, 'RDX_ERR_BUNDLE');
    return readFileSync(file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file}: cannot read the bundle (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'RDX_ERR_BUNDLE');
  }
}

/** Whether the file starts as gzip does (a bundle), read from its first two bytes only. */
export function isGzipFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Recomputes every hash of a bundle in memory, and checks it against the anchors given; nothing is written to disk.
 * Every check is linear in the entries (looked up by name in a Map), and the entries are bounded (MAX_BUNDLE_ENTRIES).
 */
export function verifyBundle(archive: Buffer, anchors: Anchors = {}): Verification {
  let entries: TarEntry[];
  try {
    entries = tarUnpack(gunzipSync(archive, { maxOutputLength: MAX_UNPACKED_BYTES }), MAX_BUNDLE_ENTRIES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = error instanceof TarError ? error.message
      : code === 'ERR_BUFFER_TOO_LARGE' ? `unpacks to more than ${MAX_UNPACKED_BYTES / 2 ** 20} MiB, far more than a bundle holds; not read`
        : `not a gzip file (${(error as Error).message})`;
    return { status: 'malformed', problem: why };
  }
  // tarUnpack refuses a name twice (and anything else rdx does not write), so every entry has its own name.
  const byName = new Map<string, TarEntry>(entries.map((e) => [e.name, e]));
  const manifestEntry = byName.get(MANIFEST);
  if (!manifestEntry) return { status: 'malformed', problem: `no ${MANIFEST} in the archive` };
  if (manifestEntry.data.length > MAX_MANIFEST_BYTES) return { status: 'malformed', problem: `${MANIFEST}: ${manifestEntry.data.length} bytes, more than a manifest can be (${MAX_MANIFEST_BYTES / 2 ** 20} MiB); not read` };
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestEntry.data.toString('utf8')) as Manifest;
  } catch (error) {
    return { status: 'malformed', problem: `${MANIFEST} is not JSON (${(error as Error).message})` };
  }
  const shapeProblem = manifestProblem(manifest);
  if (shapeProblem) return { status: 'malformed', problem: `${MANIFEST}: ${shapeProblem}` };
  const manifestSha256 = sha256Hex(manifestEntry.data);

  const problems: string[] = [];
  const listed = new Set(manifest.files.map((f) => f.name));
  for (const f of manifest.files) {
    const entry = byName.get(f.name);
    if (!entry) problems.push(`${f.name}: listed in the manifest but missing from the bundle`);
    else if (sha256Hex(entry.data) !== f.sha256) problems.push(`${f.name}: SHA-256 is ${sha256Hex(entry.data)}, the manifest says ${f.sha256}`);
  }
  for (const e of entries) if (e.name !== MANIFEST && e.name !== SIGNATURE && !listed.has(e.name)) problems.push(`${e.name}: in the bundle but not in the manifest`);
  const pinned = anchors.manifestSha256?.trim().toLowerCase();
  if (pinned !== undefined && pinned !== manifestSha256) problems.push(`manifest.json: SHA-256 is ${manifestSha256}, expected ${pinned}`);
  if (anchors.publicKey) problems.push(...signatureProblems(manifest, manifestEntry.data, byName.get(SIGNATURE)?.data, anchors.publicKey));
  const report = byName.get('report.json');
  let parsed: Report | undefined;
  if (report && problems.length === 0) {
    // The hashes hold; the report must be one (checked as every report read from disk, src/core/report.ts), and the
    // manifest's summary must describe the report it vouches for.
    try {
      parsed = parseReport(report.data, 'report.json');
    } catch (error) {
      problems.push((error as Error).message);
    }
    const r = parsed;
    if (r) {
      if (r.spec.hash !== manifest.spec.hash) problems.push(`report.json: spec hash ${r.spec.hash} differs from the manifest's ${manifest.spec.hash}`);
      if (r.harness.version !== manifest.harness.version) problems.push(`report.json: harness ${r.harness.version} differs from the manifest's ${manifest.harness.version}`);
      // A manifest cannot vouch for a better verdict than the report it lists.
      if (r.summary.verdict !== manifest.run.verdict) problems.push(`report.json: verdict ${r.summary.verdict} differs from the manifest's ${manifest.run.verdict}`);
      if (manifest.run.conformant !== r.summary.conformant) problems.push(`report.json: conformant ${String(r.summary.conformant)} differs from the manifest's ${String(manifest.run.conformant)}`);
      if (manifest.run.unjudgedMust !== r.summary.unjudgedMust) problems.push(`report.json: ${r.summary.unjudgedMust} MUST case(s) not judged, the manifest says ${manifest.run.unjudgedMust}`);
      if ((r.run.signer?.fingerprint ?? null) !== (manifest.signer?.fingerprint ?? null)) problems.push(`report.json: signer ${r.run.signer?.fingerprint ?? 'none'} differs from the manifest's ${manifest.signer?.fingerprint ?? 'none'}`);
    }
  }
  if (problems.length) return { status: 'mismatch', manifest, manifestSha256, problems };
  const trust: Trust = anchors.publicKey ? 'signed' : pinned !== undefined ? 'pinned' : 'integrity';
  return { status: 'ok', manifest, manifestSha256, trust, ...(parsed ? { report: parsed } : {}) };
}

/** Why the manifest's signature does not hold for this public key, or nothing when it does. */
function signatureProblems(manifest: Manifest, data: Buffer, signature: Buffer | undefined, publicKey: KeyObject): string[] {
  const fingerprint = keyFingerprint(publicKey);
  if (!signature) return [`${SIGNATURE}: missing; the bundle is not signed, so the public key ${fingerprint} cannot vouch for it`];
  if (manifest.signer?.fingerprint !== fingerprint) {
    return [`${MANIFEST}: signed by ${manifest.signer?.fingerprint ?? 'an unnamed key'}, not by the public key given (${fingerprint})`];
  }
  const bytes = Buffer.from(signature.toString('utf8').trim(), 'base64');
  let ok: boolean;
  try {
    ok = verify(null, data, publicKey, bytes);
  } catch {
    ok = false;
  }
  return ok ? [] : [`${SIGNATURE}: the signature does not match manifest.json for the public key ${fingerprint}: the manifest was changed after it was signed, or signed by another key`];
}

function manifestProblem(m: unknown): string | undefined {
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!obj(m)) return 'expected an object';
  if (m['format'] !== 'rdx-bundle/1') return `format: expected "rdx-bundle/1", got ${JSON.stringify(m['format'])}`;
  if (!obj(m['harness']) || typeof m['harness']['version'] !== 'string') return 'harness.version: missing';
  if (!obj(m['spec']) || typeof m['spec']['hash'] !== 'string') return 'spec.hash: missing';
  if (typeof m['createdAt'] !== 'string') return 'createdAt: missing';
  if (!Array.isArray(m['files'])) return 'files: expected a list';
  if (!obj(m['run']) || typeof m['run']['id'] !== 'string' || typeof m['run']['conformant'] !== 'boolean') return 'run.id, run.conformant: missing';
  if (!RUN_VERDICTS.includes(m['run']['verdict'] as RunVerdict)) return `run.verdict: expected one of ${RUN_VERDICTS.join(', ')}`;
  if (!Number.isInteger(m['run']['unjudgedMust']) || (m['run']['unjudgedMust'] as number) < 0) return 'run.unjudgedMust: expected a whole number';
  if (m['signer'] !== undefined && (!obj(m['signer']) || typeof m['signer']['fingerprint'] !== 'string')) return 'signer.fingerprint: missing';
  if ((m['files'] as unknown[]).length > MAX_BUNDLE_ENTRIES) return `files: ${(m['files'] as unknown[]).length} entries, more than a bundle holds (${MAX_BUNDLE_ENTRIES})`;
  for (const [i, f] of (m['files'] as unknown[]).entries()) {
    if (!obj(f) || typeof f['name'] !== 'string') return `files[${i}].name: missing`;
    if (typeof f['sha256'] !== 'string' || !/^[0-9a-f]{64}$/.test(f['sha256'])) return `files[${i}].sha256: expected 64 hex digits`;
  }
  return undefined;
}
