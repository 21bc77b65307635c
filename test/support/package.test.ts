import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProgram, uncounted } from './package.js';

describe('test support: programs whose coverage cannot count', () => {
  it('run without NODE_V8_COVERAGE when uncounted, and with the run\'s own otherwise', async () => {
    const before = process.env['NODE_V8_COVERAGE'];
    const dir = before ?? mkdtempSync(join(tmpdir(), 'rdx-coverage-'));
    process.env['NODE_V8_COVERAGE'] = dir;
    try {
      const probe = ['-e', 'process.stdout.write(process.env.NODE_V8_COVERAGE || "none")'];
      expect((await runProgram(process.execPath, probe, { limitMs: 30_000, uncounted: true })).stdout).to.equal('none');
      expect((await runProgram(process.execPath, probe, { limitMs: 30_000 })).stdout).to.equal(dir);
      expect(uncounted({ NODE_V8_COVERAGE: dir, PATH: '/bin' })).to.deep.equal({ NODE_V8_COVERAGE: '', PATH: '/bin' });
    } finally {
      if (before === undefined) {
        delete process.env['NODE_V8_COVERAGE'];
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});

describe('test support: a program killed at its limit', () => {
  it('says so where a failed assertion shows it, and a program that ends in time carries no such line', async () => {
    const hung = await runProgram(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { limitMs: 300 });
    expect(hung.code).to.equal(null);
    expect(hung.stderr).to.include(`(${process.execPath} was killed at the test's limit of 300 ms)`);
    const quick = await runProgram(process.execPath, ['-e', 'process.stderr.write("x")'], { limitMs: 30_000 });
    expect(quick).to.deep.equal({ code: 0, stdout: '', stderr: 'x' });
  });
});
