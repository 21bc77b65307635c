// The certification bundle: the reports of one run and a manifest of their SHA-256 hashes in one bundle.tar.gz,
// which anyone can check offline with `rdx verify`. The hashes show that no file changed after the manifest was
// written; publishing the manifest's own hash (printed when the bundle is made) through another channel pins it.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Report } from './merge.js';
import type { RunVerdict } from '../engine/verdict.js';
import { tarPack, tarUnpack, TarError, type TarEntry } from './tar.js';

export const MANIFEST = 'manifest.json';
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
}

export const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** The bundle's files: the given ones, then the manifest of their hashes. */
export function bundleEntries(report: Report, files: TarEntry[], createdAt: Date): TarEntry[] {
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
  };
  return [...files, { name: MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) }];
}

export function packBundle(entries: TarEntry[], createdAt: Date): Buffer {
  // mtime 0 in the gzip header: the same files give the same bytes.
  return gzipSync(tarPack(entries, createdAt), { level: 9 });
}

export type Verification =
  | { status: 'ok'; manifest: Manifest; manifestSha256: string }
  | { status: 'mismatch'; manifest: Manifest; manifestSha256: string; problems: string[] }
  | { status: 'malformed'; problem: string };

/** Recomputes every hash of a bundle in memory; nothing is written to disk. */
export function verifyBundle(archive: Buffer): Verification {
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
  for (const e of entries) if (e.name !== MANIFEST && !listed.has(e.name)) problems.push(`${e.name}: in the bundle but not in the manifest`);
  const report = entries.find((e) => e.name === 'report.json');
  if (report && problems.length === 0) {
    // The hashes hold; the manifest's summary must also describe the report it vouches for.
    try {
      const r = JSON.parse(report.data.toString('utf8')) as Partial<Report>;
      if (r.spec?.hash !== manifest.spec.hash) problems.push(`report.json: spec hash ${String(r.spec?.hash)} differs from the manifest's ${manifest.spec.hash}`);
      if (r.harness?.version !== manifest.harness.version) problems.push(`report.json: harness ${String(r.harness?.version)} differs from the manifest's ${manifest.harness.version}`);
      // A manifest cannot vouch for a better verdict than the report it lists.
      if (manifest.run.verdict !== undefined && r.summary?.verdict !== manifest.run.verdict) problems.push(`report.json: verdict ${String(r.summary?.verdict)} differs from the manifest's ${manifest.run.verdict}`);
      if (r.summary && manifest.run.conformant !== r.summary.conformant) problems.push(`report.json: conformant ${String(r.summary.conformant)} differs from the manifest's ${String(manifest.run.conformant)}`);
    } catch {
      problems.push('report.json: not JSON');
    }
  }
  return problems.length ? { status: 'mismatch', manifest, manifestSha256, problems } : { status: 'ok', manifest, manifestSha256 };
}

function manifestProblem(m: unknown): string | undefined {
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!obj(m)) return 'expected an object';
  if (m['format'] !== 'rdx-bundle/1') return `format: expected "rdx-bundle/1", got ${JSON.stringify(m['format'])}`;
  if (!obj(m['harness']) || typeof m['harness']['version'] !== 'string') return 'harness.version: missing';
  if (!obj(m['spec']) || typeof m['spec']['hash'] !== 'string') return 'spec.hash: missing';
  if (typeof m['createdAt'] !== 'string') return 'createdAt: missing';
  if (!Array.isArray(m['files'])) return 'files: expected a list';
  for (const [i, f] of (m['files'] as unknown[]).entries()) {
    if (!obj(f) || typeof f['name'] !== 'string') return `files[${i}].name: missing`;
    if (typeof f['sha256'] !== 'string' || !/^[0-9a-f]{64}$/.test(f['sha256'])) return `files[${i}].sha256: expected 64 hex digits`;
  }
  return undefined;
}
