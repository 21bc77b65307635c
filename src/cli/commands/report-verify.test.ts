import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { packageRoot } from '../../spec/index.js';
import { tarPack, tarUnpack } from '../../reporters/tar.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function rdx(args: string[], env: Record<string, string> = {}): { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_')));
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: packageRoot, encoding: 'utf8', timeout: 60_000, env: { ...clean, ...env } });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
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
    const single = rdx(['run', '-R', 'none', '--grep', '^token\\.issued ', '--report-dir', join(dir, 'single'), '--bundle', '--allow-incomplete']);
    expect(single.code, single.stderr).to.equal(0);
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

  it('a merge with a shard missing names its cases from the reports, and runs no pattern a report holds', () => {
    // A crafted filters.grep that backtracks for ever on any case's "id title": a merge that planned the missing
    // shard again ran it at 100 % CPU (issue 36). The missing shard's cases come from the shard's own report.
    // Shard 1/2 twice (a rerun of it), so shard 2/2 is missing from the merge.
    const crafted = [1, 2].map((n) => {
      const report = JSON.parse(readFileSync(shard(1), 'utf8')) as { run: { id: string; options: { filters: Record<string, unknown> } } };
      report.run.options.filters['grep'] = '^(.|.)*\u0000$';
      report.run.id = `${report.run.id}-${n}`;
      const path = join(dir, `crafted-shard-1-${n}.json`);
      writeFileSync(path, JSON.stringify(report));
      return path;
    });
    const r = rdx(['report', ...crafted, '--out', join(dir, 'crafted-merge')]);
    expect(r.signal, 'killed by the 60 s guard').to.equal(null);
    expect(r.code, r.stderr).to.equal(4);
    const merged = JSON.parse(readFileSync(join(dir, 'crafted-merge', 'report.json'), 'utf8')) as { summary: { toComplete: { unlock: string; how: string; cases: string[] }[] } };
    const missing = merged.summary.toComplete.find((t) => t.unlock === '--shard 2/2');
    expect(missing?.how).to.equal('shard 2/2 is missing: run it and merge its report.json too');
    expect(missing?.cases).to.not.be.empty;
  });

  it('writes only what is asked, beside a single report by default', () => {
    const r = rdx(['report', shard(1), '--junit', '--allow-incomplete']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.include(join(dir, 'shard-1'));
    expect(r.stderr).to.include('junit.xml').and.not.include('report.html');
  });

  it('exits 1 naming the file that was changed, 2 on a malformed bundle', () => {
    const bundle = join(dir, 'single', 'latest', 'bundle.tar.gz');
    // Neither a pinned hash nor a key: the bundle agrees with itself, which is no certificate; exit 5.
    const loose = rdx(['verify', bundle]);
    expect(loose.code, loose.stderr).to.equal(5);
    expect(loose.stdout).to.include('integrity only: the bundle agrees with itself; pin its manifest hash or check its signature to know it is the one that was published');
    expect(loose.stdout).to.not.match(/^verified/m);

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

  it('signs a bundle with rdx keygen\'s key; a reader checks it with the public key, and an edited, re-hashed bundle fails', () => {
    const keys = join(dir, 'keys');
    const made = rdx(['keygen', '--out', join(dir, 'vendor.pem')]);
    expect(made.code, made.stderr).to.equal(0);
    const fingerprint = /^Fingerprint: (SHA256:[0-9a-f]{64})$/m.exec(made.stdout)?.[1] as string;
    expect(fingerprint).to.be.a('string');
    const privateKey = readFileSync(join(dir, 'vendor.pem'), 'utf8');
    expect(privateKey).to.match(/^-----BEGIN PRIVATE KEY-----/);
    expect(made.stdout).to.not.include(privateKey.split('\n')[1] as string);
    expect(rdx(['keygen', '--out', join(dir, 'vendor.pem')]).code, 'an existing key is not overwritten').to.equal(2);

    // Signed through the environment (a CI secret holds the PEM text), as through --sign-key.
    const run = rdx(['run', '-R', 'none', '--grep', '^token\\.issued ', '--report-dir', keys, '--bundle', '--allow-incomplete'], { RDX_SIGN_KEY: privateKey });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`Bundle signed by ${fingerprint}`);
    const bundle = join(keys, 'latest', 'bundle.tar.gz');
    const files = tarUnpack(gunzipSync(readFileSync(bundle)));
    expect(files.map((f) => f.name)).to.include.members(['manifest.json', 'manifest.sig']);
    const manifest = JSON.parse(files.find((f) => f.name === 'manifest.json')?.data.toString() ?? '{}') as { signer?: { fingerprint: string } };
    expect(manifest.signer?.fingerprint).to.equal(fingerprint);
    const report = JSON.parse(readFileSync(join(keys, 'latest', 'report.json'), 'utf8')) as { run: { signer?: { fingerprint: string } } };
    expect(report.run.signer).to.deep.equal({ algorithm: 'Ed25519', fingerprint });
    // The private key is in no output and no file of the run.
    const secretLine = privateKey.split('\n')[1] as string;
    for (const f of files) expect(f.data.toString('utf8'), f.name).to.not.include(secretLine);
    expect(run.stdout + run.stderr).to.not.include(secretLine);

    const pub = join(dir, 'vendor.pem.pub');
    const ok = rdx(['verify', bundle, '--public-key', pub]);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.stdout).to.match(new RegExp(`^verified: 4 file\\(s\\) match manifest\\.json \\(sha256 [0-9a-f]{64}\\); signature by ${fingerprint} holds`, 'm'));
    expect(rdx(['badge', bundle, '--public-key', pub, '--stdout']).code).to.equal(0);

    // The attack: a verdict edited in report.json, the manifest re-hashed to match. Self-consistent again, so
    // without a key it is integrity only (exit 5), and with the publisher's key the signature fails (exit 1).
    const forged = files.map((f) => ({ ...f }));
    const json = forged.find((f) => f.name === 'report.json') as { name: string; data: Buffer };
    json.data = Buffer.from(json.data.toString().replace('"verdict": "INCOMPLETE"', '"verdict": "CONFORMANT"').replace('"conformant": false', '"conformant": true'));
    const m = forged.find((f) => f.name === 'manifest.json') as { name: string; data: Buffer };
    const doc = JSON.parse(m.data.toString()) as { run: { verdict: string; conformant: boolean }; files: { name: string; bytes: number; sha256: string }[] };
    doc.run.verdict = 'CONFORMANT';
    doc.run.conformant = true;
    doc.run = { ...doc.run };
    for (const entry of doc.files) {
      const data = forged.find((f) => f.name === entry.name)?.data as Buffer;
      entry.sha256 = createHash('sha256').update(data).digest('hex');
      entry.bytes = data.length;
    }
    m.data = Buffer.from(`${JSON.stringify(doc, null, 2)}\n`);
    const forgedFile = join(dir, 'forged.tar.gz');
    writeFileSync(forgedFile, gzipSync(tarPack(forged, new Date())));
    const integrity = rdx(['verify', forgedFile]);
    expect(integrity.code).to.equal(5);
    expect(integrity.stdout).to.include('integrity only:');
    const caught = rdx(['verify', forgedFile, '--public-key', pub]);
    expect(caught.code).to.equal(1);
    expect(caught.stderr).to.match(/^MISMATCH manifest\.sig: the signature does not match manifest\.json/m);
    expect(rdx(['badge', forgedFile, '--public-key', pub, '--stdout']).stdout).to.equal('');

    // Another key, a private key given as the public one, and an unsigned bundle checked with a key.
    expect(rdx(['keygen', '--out', join(dir, 'other.pem')]).code).to.equal(0);
    const other = rdx(['verify', bundle, '--public-key', join(dir, 'other.pem.pub')]);
    expect(other.code).to.equal(1);
    expect(other.stderr).to.match(/MISMATCH manifest\.json: signed by SHA256:[0-9a-f]{64}, not by the public key given/);
    const wrongKind = rdx(['verify', bundle, '--public-key', join(dir, 'vendor.pem')]);
    expect(wrongKind.code).to.equal(2);
    expect(wrongKind.stderr).to.match(/a private key; give the public key/).and.not.include(secretLine);
    const unsigned = join(dir, 'single', 'latest', 'bundle.tar.gz');
    const notSigned = rdx(['verify', unsigned, '--public-key', pub]);
    expect(notSigned.code).to.equal(1);
    expect(notSigned.stderr).to.match(/MISMATCH manifest\.sig: missing; the bundle is not signed/);
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
