import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { defaults } from '../config/profile.js';
import { runConformance, type RunReport } from '../engine/run.js';
import { embeddedSimulator } from '../compose.js';
import { verifyBundle } from './bundle.js';
import { writeReportFiles } from './files.js';
import { tarPack, tarUnpack, TarError } from './tar.js';

describe('ustar writer and reader', () => {
  const entries = [
    { name: 'a.txt', data: Buffer.from('hello\n') },
    { name: 'empty', data: Buffer.alloc(0) },
    { name: 'exact.bin', data: Buffer.alloc(512, 7) },
  ];

  it('reads back what it wrote, byte for byte, and writes the same bytes twice', () => {
    const when = new Date('2026-01-02T03:04:05Z');
    const archive = tarPack(entries, when);
    expect(archive.length % 512).to.equal(0);
    expect(tarUnpack(archive)).to.deep.equal(entries);
    expect(tarPack(entries, when).equals(archive)).to.equal(true);
  });

  it('writes archives the system tar reads', function () {
    if (spawnSync('tar', ['--version']).status !== 0) this.skip();
    const dir = mkdtempSync(join(tmpdir(), 'rdx-tar-'));
    writeFileSync(join(dir, 'x.tar'), tarPack(entries, new Date()));
    const listed = spawnSync('tar', ['-tf', join(dir, 'x.tar')], { encoding: 'utf8' });
    expect(listed.stdout.trim().split('\n')).to.deep.equal(['a.txt', 'empty', 'exact.bin']);
    const extracted = spawnSync('tar', ['-xOf', join(dir, 'x.tar'), 'a.txt'], { encoding: 'utf8' });
    expect(extracted.stdout).to.equal('hello\n');
  });

  it('refuses what the system tar writes in pax format, which rdx does not write', function () {
    if (spawnSync('tar', ['--version']).status !== 0) this.skip();
    const dir = mkdtempSync(join(tmpdir(), 'rdx-tar-'));
    writeFileSync(join(dir, 'report.json'), '{}\n');
    const made = spawnSync('tar', ['--format=posix', '-cf', join(dir, 'x.tar'), '-C', dir, 'report.json']);
    expect(made.status).to.equal(0);
    expect(() => tarUnpack(readFileSync(join(dir, 'x.tar')))).to.throw(TarError, /at byte 0, a pax extended header/);
  });

  it('refuses a header field or a padding byte rdx does not write', () => {
    const archive = tarPack(entries, new Date('2026-01-02T03:04:05Z'));
    const withSum = (tar: Buffer): Buffer => {
      tar.fill(0x20, 148, 156);
      let sum = 0;
      for (let i = 0; i < 512; i++) sum += tar[i] as number;
      tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
      return tar;
    };
    const prefixed = Buffer.from(archive);
    prefixed.write('evil', 345);
    expect(() => tarUnpack(withSum(prefixed))).to.throw(TarError, /header of a\.txt at byte 0 differs from the one rdx writes \(at its byte 345\)/);
    const padded = Buffer.from(archive);
    padded[512 + 6] = 0x41;
    expect(() => tarUnpack(padded)).to.throw(TarError, /padding after a\.txt holds data/);
  });

  it('refuses a damaged header, a truncated archive, and links', () => {
    const archive = tarPack(entries, new Date());
    const damaged = Buffer.from(archive);
    damaged[0] = 'b'.charCodeAt(0);
    expect(() => tarUnpack(damaged)).to.throw(TarError, /checksum/);
    expect(() => tarUnpack(archive.subarray(0, 2100))).to.throw(TarError, /ends inside an entry/);
    expect(() => tarUnpack(archive.subarray(0, 1536))).to.throw(TarError, /no end-of-archive marker/);
    const link = Buffer.from(tarPack([{ name: 'l', data: Buffer.alloc(0) }], new Date()));
    link[156] = '2'.charCodeAt(0);
    let sum = 0;
    link.fill(0x20, 148, 156);
    for (let i = 0; i < 512; i++) sum += link[i] as number;
    link.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    expect(() => tarUnpack(link)).to.throw(TarError, /at byte 0, a symbolic link/);
  });
});

describe('certification bundle', function () {
  this.timeout(30_000);
  let report: RunReport;
  let dir: string;
  let bundle: Buffer;

  before(async () => {
    report = (await runConformance({ profile: { ...defaults(), clientSecret: 'never-in-a-bundle' }, simulator: embeddedSimulator(), reporter: 'none', filters: { grep: '^token\\.' } })).report;
    dir = mkdtempSync(join(tmpdir(), 'rdx-bundle-'));
    const written = writeReportFiles(report, dir, { json: true, junit: true, html: true, bundle: true });
    bundle = readFileSync(written.bundle?.file as string);
  });

  it('holds the reports written beside it, the redacted profile and a manifest of their hashes', () => {
    const files = tarUnpack(gunzipSync(bundle));
    expect(files.map((f) => f.name)).to.deep.equal(['report.json', 'junit.xml', 'report.html', 'profile.json', 'manifest.json']);
    for (const name of ['report.json', 'junit.xml', 'report.html']) {
      expect(files.find((f) => f.name === name)?.data.equals(readFileSync(join(dir, name))), name).to.equal(true);
    }
    const profile = JSON.parse(files.find((f) => f.name === 'profile.json')?.data.toString() ?? '') as unknown;
    expect(profile).to.deep.equal(report.run.options);
    const manifest = JSON.parse(files.find((f) => f.name === 'manifest.json')?.data.toString() ?? '') as { harness: { version: string }; spec: { hash: string }; createdAt: string; files: unknown[] };
    expect(manifest.harness.version).to.equal(report.harness.version);
    expect(manifest.spec.hash).to.equal(report.spec.hash);
    expect(Date.parse(manifest.createdAt)).to.be.a('number').and.not.NaN;
    expect(manifest.files).to.have.length(4);
    expect(files.some((f) => f.data.includes('never-in-a-bundle'))).to.equal(false);
  });

  it('verifies when nothing was touched', () => {
    const result = verifyBundle(bundle);
    expect(result.status).to.equal('ok');
  });

  it('names the file that was tampered with', () => {
    const files = tarUnpack(gunzipSync(bundle));
    const html = files.find((f) => f.name === 'report.html');
    if (!html) throw new Error('no report.html in the bundle');
    html.data = Buffer.from(html.data.toString().replace(/class="verdict-word">[^<]*</, 'class="verdict-word">CONFORMANT!<'));
    const result = verifyBundle(gzipSync(tarPack(files, new Date())));
    expect(result.status).to.equal('mismatch');
    expect(result.status === 'mismatch' && result.problems).to.deep.equal([
      `report.html: SHA-256 is ${result.status === 'mismatch' ? (/is ([0-9a-f]{64})/.exec(result.problems[0] ?? '')?.[1] ?? '') : ''}, the manifest says ${result.status === 'mismatch' ? result.manifest.files.find((f) => f.name === 'report.html')?.sha256 : ''}`,
    ]);
  });

  it('catches a file added or removed', () => {
    const files = tarUnpack(gunzipSync(bundle));
    const added = verifyBundle(gzipSync(tarPack([...files, { name: 'extra.txt', data: Buffer.from('x') }], new Date())));
    expect(added.status === 'mismatch' && added.problems).to.deep.equal(['extra.txt: in the bundle but not in the manifest']);
    const removed = verifyBundle(gzipSync(tarPack(files.filter((f) => f.name !== 'junit.xml'), new Date())));
    expect(removed.status === 'mismatch' && removed.problems).to.deep.equal(['junit.xml: listed in the manifest but missing from the bundle']);
  });

  it('calls a bundle malformed when it is not gzip, not tar, or has no good manifest', () => {
    expect(verifyBundle(Buffer.from('plain text'))).to.deep.include({ status: 'malformed' });
    expect(verifyBundle(gzipSync(Buffer.from('x'.repeat(1024))))).to.deep.include({ status: 'malformed' });
    const files = tarUnpack(gunzipSync(bundle));
    const noManifest = verifyBundle(gzipSync(tarPack(files.filter((f) => f.name !== 'manifest.json'), new Date())));
    expect(noManifest).to.deep.equal({ status: 'malformed', problem: 'no manifest.json in the archive' });
    const badManifest = files.map((f) => (f.name === 'manifest.json' ? { ...f, data: Buffer.from('{"format":"rdx-bundle/1"}') } : f));
    expect(verifyBundle(gzipSync(tarPack(badManifest, new Date())))).to.deep.equal({ status: 'malformed', problem: 'manifest.json: harness.version: missing' });
  });
});
