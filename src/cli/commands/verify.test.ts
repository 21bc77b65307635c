// A signed bundle means one thing to every reader: rdx verify accepts only the archive rdx writes, so whatever it
// verified is what GNU tar and Python's tarfile extract. Each tampered bundle below keeps the signed files intact
// and hides other report files where another extractor finds them; verify must refuse each one with the reason.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { packageRoot } from '../../spec/index.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function rdx(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_')));
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: packageRoot, encoding: 'utf8', timeout: 90_000, env: clean });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The modification time of the signed bundle's entries: what differs in a tampered entry is only what it tests. */
let mtime = '';

/** A tar header of any type, as other tools write them (tarPack writes regular files only). */
function header(name: string, size: number, type: string): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write(mtime, 136);
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write('rdx', 265);
  h.write('rdx', 297);
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

const block = (data: Buffer): Buffer => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
const entry = (name: string, data: Buffer, type = '0'): Buffer => Buffer.concat([header(name, data.length, type), block(data)]);
/** A pax record: "<length> key=value\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let n = body.length + 1;
  while (`${n}${body}`.length !== n) n++;
  return `${n}${body}`;
}
const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Every file under a directory, by its path inside it, as its SHA-256 (a directory as "directory"). */
function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        out.set(`${relative(dir, p)}/`, 'directory');
        walk(p);
      } else out.set(relative(dir, p), sha(readFileSync(p)));
    }
  };
  walk(dir);
  return out;
}

const PY_EXTRACT = [
  'import sys, tarfile',
  "t = tarfile.open(sys.argv[1], 'r:gz')",
  "t.extractall(sys.argv[2], **({'filter': 'data'} if hasattr(tarfile, 'data_filter') else {}))",
].join('\n');

const hasTool = (cmd: string, args: string[]): boolean => spawnSync(cmd, args).status === 0;

describe('rdx verify of a tampered bundle (GNU tar and Python\'s tarfile extract it)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'rdx-tamper-'));
  const key = join(dir, 'key.pem');
  let signed: Buffer;
  let body: Buffer;
  let verified: Map<string, string>;
  let fake: { json: Buffer; html: Buffer };

  before(function () {
    const missing = [hasTool('tar', ['--version']) ? '' : 'tar', hasTool('python3', ['-c', 'import tarfile']) ? '' : 'python3'].filter(Boolean);
    if (missing.length) {
      process.stdout.write(`      skipped: ${missing.join(' and ')} not on this machine, so no other extractor to compare with\n`);
      this.skip();
    }
    expect(rdx(['keygen', '--out', key]).code).to.equal(0);
    const run = rdx(['run', '-R', 'none', '--grep', '^token\\.issued ', '--report-dir', join(dir, 'run'), '--bundle', '--sign-key', key, '--allow-incomplete']);
    expect(run.code, run.stderr).to.equal(0);
    signed = readFileSync(join(dir, 'run', 'latest', 'bundle.tar.gz'));
    const tar = gunzipSync(signed);
    body = tar.subarray(0, tar.length - 1024);
    mtime = tar.subarray(136, 148).toString('latin1');
    verified = extract('signed', signed).gnu;
    const report = readFileSync(join(dir, 'run', 'latest', 'report.json'), 'utf8');
    fake = { json: Buffer.from(report.replace(/"verdict": "[A-Z_]+"/g, '"verdict": "CONFORMANT"')), html: Buffer.from('<h1>CONFORMANT</h1>\n') };
    expect(sha(fake.json)).to.not.equal(verified.get('report.json'));
  });

  /** The files GNU tar (also with --ignore-zeros, which reads past the end marker) and Python extract. */
  function extract(label: string, bundle: Buffer): { gnu: Map<string, string>; gnuIgnoreZeros: Map<string, string>; python: Map<string, string> } {
    const file = join(dir, `${label}.tar.gz`);
    writeFileSync(file, bundle);
    const into = (how: string, run: (target: string) => void): Map<string, string> => {
      const target = join(dir, `${label}-${how}`);
      mkdirSync(target);
      run(target);
      return files(target);
    };
    return {
      gnu: into('gnu', (t) => spawnSync('tar', ['-xzf', file, '-C', t])),
      gnuIgnoreZeros: into('gnu-i', (t) => spawnSync('tar', ['--ignore-zeros', '-xzf', file, '-C', t])),
      python: into('python', (t) => spawnSync('python3', ['-c', PY_EXTRACT, file, t])),
    };
  }

  const same = (a: Map<string, string>, b: Map<string, string>): boolean => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

  it('verifies the bundle rdx wrote, and every extractor gets exactly the files it verified', () => {
    const v = rdx(['verify', join(dir, 'signed.tar.gz'), '--public-key', `${key}.pub`]);
    expect(v.code, v.stderr).to.equal(0);
    const got = extract('again', signed);
    for (const [how, found] of Object.entries(got)) expect(same(found, verified), how).to.equal(true);
  });

  const tampered: [string, () => Buffer, RegExp][] = [
    ['a size=0 pax header, then a directory entry whose data holds other report files', () => {
      const inner = Buffer.concat([entry('report.json', fake.json), entry('report.html', fake.html)]);
      const pax = Buffer.from(paxRecord('size', '0'));
      return Buffer.concat([body, entry('PaxHeaders/d', pax, 'x'), header('d/', inner.length, '5'), inner, Buffer.alloc(1024)]);
    }, /at byte \d+, a pax extended header/],
    ['a duplicate report.json after the signed one', () => Buffer.concat([body, entry('report.json', fake.json), Buffer.alloc(1024)]), /report\.json appears twice/],
    ['report files after the end-of-archive marker', () => Buffer.concat([body, Buffer.alloc(1024), entry('report.json', fake.json), Buffer.alloc(1024)]), /byte\(s\) after the end-of-archive marker/],
    ['a GNU long name that renames an unlisted file to report.json', () => {
      const name = Buffer.from('report.json\0');
      return Buffer.concat([body, entry('././@LongLink', name, 'L'), entry('extra.bin', fake.json), Buffer.alloc(1024)]);
    }, /at byte \d+, a GNU long-name header/],
    ['a pax path= header that renames an unlisted file to report.html', () => {
      const pax = Buffer.from(paxRecord('path', 'report.html'));
      return Buffer.concat([body, entry('PaxHeaders/x', pax, 'x'), entry('extra.html', fake.html), Buffer.alloc(1024)]);
    }, /at byte \d+, a pax extended header/],
    ['a directory entry', () => Buffer.concat([body, header('reports/', 0, '5'), Buffer.alloc(1024)]), /at byte \d+, a directory entry/],
  ];

  for (const [what, make, reason] of tampered) {
    it(`refuses ${what}, whose extraction differs from what was signed`, () => {
      const label = what.replace(/[^a-z0-9]+/gi, '-');
      const got = extract(label, gzipSync(make()));
      // The tampering matters: some extractor gets files the signature never covered.
      expect(Object.values(got).some((found) => !same(found, verified)), 'no extractor sees the tampering').to.equal(true);
      const v = rdx(['verify', join(dir, `${label}.tar.gz`), '--public-key', `${key}.pub`]);
      expect(v.code, v.stdout).to.equal(2);
      expect(v.stdout).to.not.match(/verified/);
      expect(v.stderr, v.stderr).to.match(/malformed bundle: tar: /).and.match(reason);
    });
  }
});
