// The test files `npm test` runs, in the order it hands them to mocha: every built *.test.js under
// build/{src,simulator,scripts,test,bench}, the slowest first. Mocha's --parallel starts the files in the order given,
// so a long file started last would run alone at the end while the other job idles (docs/testing.md, "Where the time
// goes", has the table these names come from).
//
//   node scripts/test-files.mjs        prints the paths, one a line (package.json: `c8 mocha … $(node scripts/test-files.mjs)`)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TREES = ['src', 'simulator', 'scripts', 'test', 'bench'];
/** The slowest files, slowest first, as built paths under build/ (a name that no longer exists is an error). */
export const SLOWEST_FIRST = [
  'src/selfcheck/selfcheck.test.js',
  'test/hostile/full-run.test.js',
  'test/packaging/installed.test.js',
  'src/cli/consistency.test.js',
  'test/concurrency.test.js',
  'src/engine/verdict.test.js',
];

function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

/** Every test file under build/, relative to the package root, the slowest first and the rest in path order. */
export function testFiles(base = root) {
  const build = join(base, 'build');
  const all = TREES.flatMap((tree) => walk(join(build, tree))).map((path) => relative(base, path)).sort();
  const first = SLOWEST_FIRST.map((name) => join('build', name));
  const missing = first.filter((path) => !all.includes(path));
  if (missing.length > 0) throw new Error(`scripts/test-files.mjs: SLOWEST_FIRST names ${missing.join(', ')}, which the build does not hold (renamed? run npm run build first)`);
  return [...first, ...all.filter((path) => !first.includes(path))];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.stdout.write(`${testFiles().join('\n')}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  }
}
