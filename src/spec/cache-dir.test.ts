import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from './cache-dir.js';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** Starts `rdx simulate` with env, waits until it listens, stops it. */
function simulateOnce(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'simulate', '--port', '0', '--records', '50', '--no-admin'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('rdx simulate did not listen within 20 s'));
    }, 20_000);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('listening on')) child.kill('SIGTERM');
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (out.includes('listening on')) resolve();
      else reject(new Error(`rdx simulate stopped before listening: ${out}`));
    });
  });
}

describe('cache folder', () => {
  it('is RDX_CACHE_DIR, else XDG_CACHE_HOME, else ~/.cache, under rdx-conformance; off when asked', () => {
    expect(cacheDir('seed', { RDX_CACHE_DIR: '/tmp/c' })).to.equal(join('/tmp/c', 'seed'));
    expect(cacheDir('seed', { RDX_CACHE_DIR: 'off', XDG_CACHE_HOME: '/x' })).to.equal(undefined);
    expect(cacheDir('seed', { RDX_CACHE_DIR: '' })).to.equal(undefined);
    expect(cacheDir('spec', { XDG_CACHE_HOME: '/x' })).to.equal(join('/x', 'rdx-conformance', 'spec'));
    expect(cacheDir('spec', {})).to.match(/[/\\]\.cache[/\\]rdx-conformance[/\\]spec$/);
  });

  it('receives the seeded data and the parsed spec files of `rdx simulate`, and nothing when caching is off', async function () {
    this.timeout(60_000);
    const root = mkdtempSync(join(tmpdir(), 'rdx-cache-'));
    try {
      await simulateOnce({ RDX_CACHE_DIR: join(root, 'chosen'), XDG_CACHE_HOME: join(root, 'xdg') });
      expect(readdirSync(join(root, 'chosen', 'seed')).filter((f) => f.endsWith('-1-50.json'))).to.have.lengthOf(1);
      expect(readdirSync(join(root, 'chosen', 'spec')).some((f) => f.startsWith('openapi.yaml-'))).to.equal(true);
      // A second start reads what the first kept: same files, none added.
      const before = readdirSync(join(root, 'chosen', 'seed'));
      await simulateOnce({ RDX_CACHE_DIR: join(root, 'chosen') });
      expect(readdirSync(join(root, 'chosen', 'seed'))).to.deep.equal(before);

      await simulateOnce({ RDX_CACHE_DIR: 'off', XDG_CACHE_HOME: join(root, 'xdg') });
      expect(readdirSync(root).sort()).to.deep.equal(['chosen']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
