// Key material (issue 37 §2): an error never quotes a key, whatever RDX_SIGN_KEY or --sign-key holds, and
// `rdx keygen --force` writes new files, never through an existing file or a link planted at the key's name.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { linkSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../spec/index.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function rdx(args: string[], env: Record<string, string> = {}): { code: number | null; output: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_')));
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: packageRoot, encoding: 'utf8', timeout: 60_000, env: { ...clean, ...env } });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('key material', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'rdx-keys-'));
  const key = join(dir, 'k.pem');
  let pem: string;
  let body: string;

  before(() => {
    expect(rdx(['keygen', '--out', key]).code).to.equal(0);
    pem = readFileSync(key, 'utf8');
    body = pem.split('\n').filter((l) => l && !l.startsWith('-----')).join('');
    expect(body.length).to.be.greaterThan(40);
  });

  /** Whether the output holds the key's body, or any 16 characters of it. */
  const quotesKey = (output: string): boolean => {
    for (let i = 0; i + 16 <= body.length; i++) if (output.includes(body.slice(i, i + 16))) return true;
    return false;
  };

  it('never quotes RDX_SIGN_KEY holding a key body without its BEGIN/END lines, and says what is wrong', () => {
    for (const value of [body, `${body}\n`, pem.replace(/-----BEGIN PRIVATE KEY-----\n/, '')]) {
      const r = rdx(['report', join(dir, 'missing.json'), '--bundle', '--out', join(dir, 'out')], { RDX_SIGN_KEY: value });
      expect(r.code).to.equal(2);
      expect(quotesKey(r.output), 'the key is quoted').to.equal(false);
      expect(r.output).to.match(/RDX_SIGN_KEY/).and.not.match(/\n\s+at /);
    }
    const bare = rdx(['report', join(dir, 'missing.json'), '--bundle', '--out', join(dir, 'out')], { RDX_SIGN_KEY: body });
    expect(bare.output).to.include('without its -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines');
  });

  it('never quotes --sign-key or --public-key given key text instead of a file name', () => {
    const signed = rdx(['report', join(dir, 'missing.json'), '--bundle', '--out', join(dir, 'out'), '--sign-key', body]);
    expect(signed.code).to.equal(2);
    expect(quotesKey(signed.output), 'the key is quoted').to.equal(false);
    expect(signed.output).to.include('--sign-key (not quoted');
    const checked = rdx(['verify', join(dir, 'missing.tar.gz'), '--public-key', pem]);
    expect(quotesKey(checked.output), 'the key is quoted').to.equal(false);
  });

  it('keygen --force writes a new file (mode 600) and never writes through a hard link or a symbolic link', () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'another user\'s file\n', { mode: 0o644 });
    const hard = join(dir, 'hard.pem');
    linkSync(victim, hard);
    const soft = join(dir, 'soft.pem');
    symlinkSync(victim, soft);
    for (const out of [hard, soft]) {
      expect(rdx(['keygen', '--out', out]).code, 'refused without --force').to.equal(2);
      const r = rdx(['keygen', '--out', out, '--force']);
      expect(r.code, r.output).to.equal(0);
      expect(readFileSync(victim, 'utf8'), 'the linked file was written through').to.equal('another user\'s file\n');
      expect(lstatSync(out).isFile(), 'a new regular file').to.equal(true);
      expect(statSync(out).ino).to.not.equal(statSync(victim).ino);
      expect(statSync(out).mode & 0o777).to.equal(0o600);
      expect(readFileSync(out, 'utf8')).to.match(/^-----BEGIN PRIVATE KEY-----/);
    }
    expect(statSync(victim).mode & 0o777).to.equal(0o644);
  });
});
