import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/spec/index.js';

const script = join(packageRoot, 'scripts', 'side-by-side.mjs');
/** A shell command that runs a line of JavaScript (node's own path, quoted for the shell). */
const node = (code: string): string => `"${process.execPath}" -e "${code}"`;

function sideBySide(...commands: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...commands], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/side-by-side.mjs (npm test lints while it builds)', () => {
  it('runs the commands at the same time and prints each one\'s output whole, in the order given', () => {
    // The first command waits for a file only the second makes (giving up after 20 s): one after the other, it
    // would never see it. It ends last, and its output still comes first.
    const dir = mkdtempSync(join(tmpdir(), 'rdx-side-'));
    const mark = JSON.stringify(join(dir, 'second-ran')).replace(/"/g, "'");
    try {
      const first = node(`const fs = require('fs'); const until = Date.now() + 20000; const poll = () => fs.existsSync(${mark}) ? console.log('first saw second') : Date.now() > until ? process.exit(9) : setTimeout(poll, 20); poll()`);
      const second = node(`require('fs').writeFileSync(${mark}, ''); console.log('second out'); console.error('second err')`);
      const r = sideBySide(first, second);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout.indexOf('first saw second')).to.be.greaterThan(-1).and.below(r.stdout.indexOf('second out'));
      expect(r.stderr).to.include('second err');
      expect(r.stdout.match(/\[side-by-side\] .* passed in [\d.]+ s/g)).to.have.length(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails with the failing command\'s exit code once every command has ended, and says which failed', () => {
    const r = sideBySide(node('process.exit(3)'), node("setTimeout(() => console.log('still ran to its end'), 300)"));
    expect(r.status).to.equal(3);
    expect(r.stdout).to.include('still ran to its end');
    expect(r.stderr).to.match(/\[side-by-side\] .*process\.exit\(3\).*: failed \(exit code 3\)/);
  });

  it('refuses to run with no command, saying how to call it', () => {
    const r = sideBySide();
    expect(r.status).to.equal(2);
    expect(r.stderr).to.match(/^usage: node scripts\/side-by-side\.mjs/);
  });
});
