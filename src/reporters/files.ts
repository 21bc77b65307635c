// Writes a run's reports under <dir>/<run-id>/ and points <dir>/latest at it.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunReport } from '../core/report.js';
import { bundleEntries, MANIFEST, packBundle, sha256Hex, type SigningKey } from './bundle.js';
import { htmlReport } from './html.js';
import { junitXml } from './junit.js';
import type { Report } from './merge.js';

export interface WrittenReports {
  dir: string;
  files: string[];
  bundle?: { file: string; sha256: string; manifestSha256: string };
}

export interface ReportOutputs {
  json?: boolean;
  junit?: boolean;
  html?: boolean;
  /** bundle.tar.gz: report.json, junit.xml, report.html, profile.json and manifest.json. */
  bundle?: boolean;
  /** Signs the bundle's manifest (manifest.sig); its fingerprint goes into report.json and the manifest. */
  signWith?: SigningKey;
}

/** The report files by name, rendered once so the files written and the files bundled are the same bytes. */
function rendered(report: Report): Record<'report.json' | 'junit.xml' | 'report.html' | 'profile.json', () => Buffer> {
  const cache = new Map<string, Buffer>();
  const once = (name: string, make: () => string) => (): Buffer => {
    if (!cache.has(name)) cache.set(name, Buffer.from(make(), 'utf8'));
    return cache.get(name) as Buffer;
  };
  return {
    'report.json': once('report.json', () => `${JSON.stringify(report, null, 2)}\n`),
    'junit.xml': once('junit.xml', () => junitXml(report)),
    'report.html': once('report.html', () => htmlReport(report)),
    // The target profile the run used, secrets already removed by the engine (report.run.options).
    'profile.json': once('profile.json', () => `${JSON.stringify(report.run.options, null, 2)}\n`),
  };
}

/** Writes the chosen report files into dir (created when missing). */
export function writeReportFiles(given: Report, dir: string, outputs: ReportOutputs, now = new Date()): WrittenReports {
  mkdirSync(dir, { recursive: true });
  const key = outputs.bundle ? outputs.signWith : undefined;
  // The report names the key that signs the bundle written with it, and none when this bundle is not signed.
  const { signer: _signer, ...run } = given.run;
  const report: Report = { ...given, run: key ? { ...run, signer: key.signer } : run };
  const files = rendered(report);
  const written: WrittenReports = { dir, files: [] };
  const write = (name: keyof typeof files): void => {
    const file = join(dir, name);
    writeFileSync(file, files[name]());
    written.files.push(file);
  };
  if (outputs.json) write('report.json');
  if (outputs.junit) write('junit.xml');
  if (outputs.html) write('report.html');
  if (outputs.bundle) {
    const names = ['report.json', 'junit.xml', 'report.html', 'profile.json'] as const;
    const entries = bundleEntries(report, names.map((name) => ({ name, data: files[name]() })), now, key);
    const archive = packBundle(entries, now);
    const file = join(dir, 'bundle.tar.gz');
    writeFileSync(file, archive);
    written.files.push(file);
    const manifest = entries.find((e) => e.name === MANIFEST)?.data as Buffer;
    written.bundle = { file, sha256: sha256Hex(archive), manifestSha256: sha256Hex(manifest) };
  }
  return written;
}

export function writeReports(report: RunReport, root: string, options: { bundle?: boolean; signWith?: SigningKey } = {}): WrittenReports {
  const dir = resolve(root, report.run.id);
  const written = writeReportFiles(report, dir, {
    json: true, junit: true, html: true, bundle: !!options.bundle, ...(options.signWith ? { signWith: options.signWith } : {}),
  });
  const latest = resolve(root, 'latest');
  try {
    rmSync(latest, { recursive: true, force: true });
    symlinkSync(report.run.id, latest, 'dir');
  } catch {
    // Where links cannot be made (some Windows setups), say where the newest run is instead.
    writeFileSync(`${latest}.txt`, `${report.run.id}\n`);
  }
  return written;
}
