// scripts/test-files.mjs: what `npm test` hands to mocha. A file it left out would never run, and the order decides
// whether `--parallel` keeps both cores busy (the files of FIRST first).
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/spec/index.js';

interface TestFiles {
  FIRST: string[];
  testFiles(base?: string): string[];
}
const script = (): Promise<TestFiles> => import(pathToFileURL(join(packageRoot, 'scripts', 'test-files.mjs')).href) as Promise<TestFiles>;

describe('the test files npm test runs (scripts/test-files.mjs)', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rdx-test-files-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const plant = (...paths: string[]): void => {
    for (const path of paths) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), '');
    }
  };

  it('lists every built test file once, those of FIRST first, in every tree, and nothing else', async () => {
    const { FIRST, testFiles } = await script();
    const others = ['build/bench/a.test.js', 'build/scripts/b.test.js', 'build/simulator/deep/c.test.js', 'build/src/z/d.test.js', 'build/test/e.test.js'];
    plant(...others, ...FIRST.map((name) => join('build', name)), 'build/src/helper.js', 'build/src/x.test.js.map', 'build/elsewhere/f.test.js');
    expect(testFiles(dir)).to.deep.equal([...FIRST.map((name) => join('build', name)), ...others]);
  });

  it('refuses a name in FIRST the build does not hold, naming it', async () => {
    const { FIRST, testFiles } = await script();
    plant(...FIRST.slice(1).map((name) => join('build', name)), 'build/src/a.test.js');
    for (const tree of ['bench', 'scripts', 'simulator', 'test']) mkdirSync(join(dir, 'build', tree), { recursive: true });
    expect(() => testFiles(dir)).to.throw(`FIRST names build/${FIRST[0] ?? ''}, which the build does not hold`);
  });

  it('is what npm test hands to mocha, side by side', () => {
    const scripts = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test']).to.include('c8 mocha --parallel --jobs 3 $(node scripts/test-files.mjs)');
  });
});
