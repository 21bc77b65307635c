import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { packageRoot } from '../../spec/index.js';
import { tarPack, tarUnpack } from '../../reporters/tar.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function rdx(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: packageRoot, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const noStack = (text: string): void => {
  expect(text).to.not.match(/\n\s+at /);
};

describe('rdx report and rdx verify', function () {
  this.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'rdx-report-cli-'));
  const shard = (i: number): string => join(dir, `shard-${i}`, 'latest', 'report.json');

  before(() => {
    for (const i of [1, 2]) {
      // A filtered run judges only its part: INCOMPLETE, exit 4 unless --allow-incomplete.
      const r = rdx(['run', '-R', 'none', '--grep', '^token\\.|^auth\\.no-header\\.', '--shard', `${i}/2`, '--report-dir', join(dir, `shard-${i}`), '--allow-incomplete']);
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/^INCOMPLETE: \d+ MUST case\(s\) not judged/m);
    }
  });

  it('merges shards into one report with HTML, JUnit and a bundle that verifies', () => {
    const out = join(dir, 'merged');
    const r = rdx(['report', shard(1), shard(2), '--out', out, '--bundle']);
    // Both shards are there, but the run was filtered: the merge is as incomplete as its parts, and exits so.
    expect(r.code, r.stderr).to.equal(4);
    expect(r.stderr).to.match(/Merged 2 reports\nINCOMPLETE: \d+ MUST case\(s\) not judged/);
    expect(r.stderr).to.match(/^ {2}- without filters: /m).and.not.include('--shard');
    for (const f of ['report.json', 'report.html', 'junit.xml', 'bundle.tar.gz']) expect(existsSync(join(out, f)), f).to.equal(true);
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { cases: { id: string }[]; mergedFrom: unknown[] };
    const count = (f: string): number => (JSON.parse(readFileSync(f, 'utf8')) as { cases: unknown[] }).cases.length;
    expect(merged.cases.length).to.equal(count(shard(1)) + count(shard(2)));
    expect(merged.mergedFrom).to.have.length(2);
    const manifestHash = /manifest\.json sha256 ([0-9a-f]{64})/.exec(r.stderr)?.[1];
    const v = rdx(['verify', join(out, 'bundle.tar.gz'), '--manifest-sha256', manifestHash ?? '']);
    expect(v.code, v.stderr).to.equal(0);
    expect(v.stdout).to.match(/^verified: 4 file\(s\) match manifest\.json/m);
  });

  it('writes only what is asked, beside a single report by default', () => {
    const r = rdx(['report', shard(1), '--junit', '--allow-incomplete']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.include(join(dir, 'shard-1'));
    expect(r.stderr).to.include('junit.xml').and.not.include('report.html');
  });

  it('exits 1 naming the file that was changed, 2 on a malformed bundle', () => {
    const run = rdx(['run', '-R', 'none', '--grep', '^token\\.issued ', '--report-dir', join(dir, 'single'), '--bundle', '--allow-incomplete']);
    expect(run.code, run.stderr).to.equal(0);
    const bundle = join(dir, 'single', 'latest', 'bundle.tar.gz');
    expect(rdx(['verify', bundle]).code).to.equal(0);

    const files = tarUnpack(gunzipSync(readFileSync(bundle)));
    const junit = files.find((f) => f.name === 'junit.xml');
    if (!junit) throw new Error('no junit.xml in the bundle');
    junit.data = Buffer.from(junit.data.toString().replace(/failures="\d+"/, 'failures="0" '));
    const tampered = join(dir, 'tampered.tar.gz');
    writeFileSync(tampered, gzipSync(tarPack(files, new Date())));
    const bad = rdx(['verify', tampered]);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/^MISMATCH junit\.xml: SHA-256 is [0-9a-f]{64}, the manifest says [0-9a-f]{64}$/m);
    noStack(bad.stderr);

    const pinned = rdx(['verify', bundle, '--manifest-sha256', '0'.repeat(64)]);
    expect(pinned.code).to.equal(1);
    expect(pinned.stderr).to.match(/MISMATCH manifest\.json: SHA-256 is/);

    const garbage = join(dir, 'garbage.tar.gz');
    writeFileSync(garbage, 'not a bundle');
    const malformed = rdx(['verify', garbage]);
    expect(malformed.code).to.equal(2);
    expect(malformed.stderr).to.match(/garbage\.tar\.gz: malformed bundle: not a gzip file/);
    noStack(malformed.stderr);
    expect(rdx(['verify', join(dir, 'nowhere.tar.gz')]).code).to.equal(2);
  });

  it('refuses to merge reports of different spec hashes, with a clear message and exit 2', () => {
    const other = JSON.parse(readFileSync(shard(2), 'utf8')) as { spec: { hash: string } };
    other.spec.hash = 'e'.repeat(64);
    const file = join(dir, 'other-spec.json');
    writeFileSync(file, JSON.stringify(other));
    const r = rdx(['report', shard(1), file, '--out', join(dir, 'nope')]);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^rdx: cannot merge: .*other-spec\.json was judged against spec eeeeeeeeeeee/);
    noStack(r.stderr);
    const missing = rdx(['report', join(dir, 'missing.json')]);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.match(/missing\.json: cannot read the report \(ENOENT\)/);
  });
});
