// The certification bundle: the reports of one run and a manifest of their SHA-256 hashes in one bundle.tar.gz,
// which anyone can check offline with `rdx verify`. The hashes show only that the bundle agrees with itself: anyone
// can edit a report and hash the manifest again. What ties a bundle to its publisher is either the manifest's own
// hash, published through another channel (rdx verify --manifest-sha256), or an Ed25519 signature of the manifest
// (manifest.sig, rdx run --sign-key) checked with the publisher's public key (rdx verify --public-key).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RunReport as Report, RunVerdict, Signer } from '../core/report.js';
import { UsageError } from '../errors.js';
import { tarPack, tarUnpack, TarError, type TarEntry } from './tar.js';

export const MANIFEST = 'manifest.json';
/** The Ed25519 signature of manifest.json's bytes, base64, when the bundle is signed. */
export const SIGNATURE = 'manifest.sig';
/** Far above any real bundle; stops a gzip bomb from taking the machine's memory. */
const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;

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
    throw new UsageError(`${where}: not a private key in PEM form (write one with rdx keygen)`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new UsageError(`${where}: an ${String(privateKey.asymmetricKeyType)} key; bundles are signed with Ed25519 (rdx keygen)`);
  return { privateKey, signer: { algorithm: 'Ed25519', fingerprint: keyFingerprint(createPublicKey(privateKey)) } };
}

/** Reads an Ed25519 public key from PEM text; `where` names its source in the error. */
export function verifyingKey(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new UsageError(`${where}: not a public key in PEM form (the publisher's rdx keygen writes one)`);
  }
  // A private key given by mistake yields its public key: refuse it, so the private key is not passed around.
  if (key.type !== 'public' || /PRIVATE KEY/.test(pem)) throw new UsageError(`${where}: a private key; give the public key (the .pub file of rdx keygen), and keep the private one secret`);
  if (key.asymmetricKeyType !== 'ed25519') throw new UsageError(`${where}: an ${String(key.asymmetricKeyType)} key; bundles are signed with Ed25519`);
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

/** Recomputes every hash of a bundle in memory, and checks it against the anchors given; nothing is written to disk. */
export function verifyBundle(archive: Buffer, anchors: Anchors = {}): Verification {
  let entries: TarEntry[];
  try {
    entries = tarUnpack(gunzipSync(archive, { maxOutputLength: MAX_UNPACKED_BYTES }));
  } catch (error) {
    const why = error instanceof TarError ? error.message : `not a gzip file (${(error as Error).message})`;
    return { status: 'malformed', problem: why };
  }
  const names = entries.map((e) => e.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) return { status: 'malformed', problem: `${duplicate} appears twice in the archive` };
  const manifestEntry = entries.find((e) => e.name === MANIFEST);
  if (!manifestEntry) return { status: 'malformed', problem: `no ${MANIFEST} in the archive` };
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
    const entry = entries.find((e) => e.name === f.name);
    if (!entry) problems.push(`${f.name}: listed in the manifest but missing from the bundle`);
    else if (sha256Hex(entry.data) !== f.sha256) problems.push(`${f.name}: SHA-256 is ${sha256Hex(entry.data)}, the manifest says ${f.sha256}`);
  }
  for (const e of entries) if (e.name !== MANIFEST && e.name !== SIGNATURE && !listed.has(e.name)) problems.push(`${e.name}: in the bundle but not in the manifest`);
  const pinned = anchors.manifestSha256?.trim().toLowerCase();
  if (pinned !== undefined && pinned !== manifestSha256) problems.push(`manifest.json: SHA-256 is ${manifestSha256}, expected ${pinned}`);
  if (anchors.publicKey) problems.push(...signatureProblems(manifest, manifestEntry.data, entries.find((e) => e.name === SIGNATURE)?.data, anchors.publicKey));
  const report = entries.find((e) => e.name === 'report.json');
  let parsed: Report | undefined;
  if (report && problems.length === 0) {
    // The hashes hold; the manifest's summary must also describe the report it vouches for.
    try {
      const r = JSON.parse(report.data.toString('utf8')) as Partial<Report>;
      parsed = r as Report;
      if (r.spec?.hash !== manifest.spec.hash) problems.push(`report.json: spec hash ${String(r.spec?.hash)} differs from the manifest's ${manifest.spec.hash}`);
      if (r.harness?.version !== manifest.harness.version) problems.push(`report.json: harness ${String(r.harness?.version)} differs from the manifest's ${manifest.harness.version}`);
      // A manifest cannot vouch for a better verdict than the report it lists.
      if (r.summary?.verdict !== manifest.run.verdict) problems.push(`report.json: verdict ${String(r.summary?.verdict)} differs from the manifest's ${manifest.run.verdict}`);
      if (r.summary && manifest.run.conformant !== r.summary.conformant) problems.push(`report.json: conformant ${String(r.summary.conformant)} differs from the manifest's ${String(manifest.run.conformant)}`);
      if (r.summary && manifest.run.unjudgedMust !== r.summary.unjudgedMust) problems.push(`report.json: ${String(r.summary.unjudgedMust)} MUST case(s) not judged, the manifest says ${String(manifest.run.unjudgedMust)}`);
      if ((r.run?.signer?.fingerprint ?? null) !== (manifest.signer?.fingerprint ?? null)) problems.push(`report.json: signer ${r.run?.signer?.fingerprint ?? 'none'} differs from the manifest's ${manifest.signer?.fingerprint ?? 'none'}`);
    } catch {
      problems.push('report.json: not JSON');
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
  if (!obj(m['run']) || typeof m['run']['verdict'] !== 'string' || typeof m['run']['unjudgedMust'] !== 'number') return 'run.verdict, run.unjudgedMust: missing';
  if (m['signer'] !== undefined && (!obj(m['signer']) || typeof m['signer']['fingerprint'] !== 'string')) return 'signer.fingerprint: missing';
  for (const [i, f] of (m['files'] as unknown[]).entries()) {
    if (!obj(f) || typeof f['name'] !== 'string') return `files[${i}].name: missing`;
    if (typeof f['sha256'] !== 'string' || !/^[0-9a-f]{64}$/.test(f['sha256'])) return `files[${i}].sha256: expected 64 hex digits`;
  }
  return undefined;
}
