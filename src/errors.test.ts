// Every error code the harness throws is one of ERROR_CODES, and docs/api.md lists each (issue 41 §5): a program
// switches on error.code, so a code thrown but not listed, or listed but gone, breaks it without a word.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './spec/index.js';
import { ERROR_CODES, EXIT, HarnessError, UnreachableError, UsageError } from './errors.js';

/** The TypeScript sources of the product (src/, simulator/), tests left out. */
function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(packageRoot, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== 'node_modules') sources(path, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('error codes', () => {
  it('every code a source names is in ERROR_CODES, and each exists for a reason: a source throws it', () => {
    const named = new Map<string, string>();
    for (const file of [...sources('src'), ...sources('simulator')]) {
      if (file === 'src/errors.ts') continue;
      for (const [code] of readFileSync(join(packageRoot, file), 'utf8').matchAll(/RDX_ERR_[A-Z_]+/g)) named.set(code, file);
    }
    for (const [code, file] of named) expect(ERROR_CODES, `${code} (${file})`).to.have.property(code);
    // The two defaults are thrown without being named: new UsageError(message), new UnreachableError(message).
    const thrown = new Set([...named.keys(), 'RDX_ERR_USAGE', 'RDX_ERR_UNREACHABLE']);
    expect(Object.keys(ERROR_CODES).filter((code) => !thrown.has(code)), 'codes nothing throws').to.deep.equal([]);
  });

  it('docs/api.md lists every code with its exit code, and no other', () => {
    const api = readFileSync(join(packageRoot, 'docs/api.md'), 'utf8');
    const listed = [...api.matchAll(/^\| `(RDX_ERR_[A-Z_]+)` \| (\d+) /gm)].map((m) => [m[1], Number(m[2])]);
    expect(listed).to.deep.equal(Object.entries(ERROR_CODES).map(([code, { exit }]) => [code, exit]));
  });

  it('an error\'s exit code follows from its code', () => {
    expect(new UsageError('x')).to.include({ code: 'RDX_ERR_USAGE', exitCode: EXIT.USAGE });
    expect(new UsageError('x', 'RDX_ERR_BASELINE')).to.include({ code: 'RDX_ERR_BASELINE', exitCode: EXIT.USAGE });
    expect(new UnreachableError('x')).to.include({ code: 'RDX_ERR_UNREACHABLE', exitCode: EXIT.UNREACHABLE });
    expect(new UnreachableError('x', 'RDX_ERR_NO_ENGINE')).to.be.instanceOf(HarnessError).and.include({ exitCode: EXIT.UNREACHABLE });
  });
});
