// A config file that tries to exhaust the reader is a config error (exit 2) with the file named, never a crash.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, UsageError } from '../errors.js';
import { packageRoot } from '../spec/index.js';
import { readConfigFile } from './profile.js';

/** Nine levels of nine aliases each: 9^9 nodes if expanded, a few hundred bytes of text. */
function aliasBomb(): string {
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  return `baseUrl: http://127.0.0.1:9\n${lines.join('\n')}\n`;
}

describe('config: a YAML alias bomb', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-yaml-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused as a config error naming the file, not expanded', () => {
    const file = join(dir, 'rdx.config.yaml');
    writeFileSync(file, aliasBomb());
    let error: unknown;
    try {
      readConfigFile(file, {});
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(UsageError);
    expect((error as Error).message).to.include(`${file}: not valid YAML:`).and.match(/alias/i);
  });

  it('makes rdx exit 2 (a config error) without a stack trace', () => {
    const file = join(dir, 'bomb.yaml');
    writeFileSync(file, aliasBomb());
    const r = spawnSync(process.execPath, [join(packageRoot, 'dist', 'src', 'cli', 'main.js'), 'run', '--config', file, '--no-reports'], {
      cwd: dir, env: { ...process.env, RDX_DEBUG: '' }, encoding: 'utf8', timeout: 60_000,
    });
    expect(r.status, r.stderr).to.equal(EXIT.USAGE);
    expect(r.stderr).to.include(file).and.not.match(/\n\s+at /);
  });
});
