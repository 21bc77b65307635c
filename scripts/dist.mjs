// The last step of `npm run build`: dist/ is the shipped code and nothing else. tsc compiles everything (the product,
// its tests, test support, benchmarks, scripts) into build/, because the tests import the product by relative paths
// and so need its tree beside theirs. dist/ then gets build/src and build/simulator without their tests: no file
// under dist/ imports a devDependency (test/packaging/contents.test.ts), and `npm pack` picks from dist/ alone.
// Source maps come along (package.json "files" leaves them out of the package): a test that spawns dist/src/cli/main.js
// is then counted by the coverage against the same .ts sources as one that imports build/.
import { cpSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHIPPED_TREES = ['src', 'simulator'];

rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const tree of SHIPPED_TREES) {
  cpSync(join(root, 'build', tree), join(root, 'dist', tree), {
    recursive: true,
    filter: (source) => !basename(source).includes('.test.'),
  });
}
