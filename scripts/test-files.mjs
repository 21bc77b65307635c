// The test files `npm test` runs, in the order it hands them to mocha: every built *.test.js under
// build/{src,simulator,scripts,test,bench}, the files of FIRST first. Mocha's --parallel starts the files in the order
// given, three at a time, and the run is bound by the CPU its files use: the order decides whether a file's waits are
// filled by another's work (docs/testing.md, "Where the time goes", has the timeline these names come from).
//
//   node scripts/test-files.mjs        prints the paths, one a line (package.json: `c8 mocha … $(node scripts/test-files.mjs)`)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TREES = ['src', 'simulator', 'scripts', 'test', 'bench'];
/** The files started first, as built paths under build/ (a name that no longer exists is an error). */
export const FIRST = [
  // The longest (about 6 minutes); its two worker processes keep both cores busy on their own.
  'src/selfcheck/selfcheck.test.js',
  // The self-check's rate-limited personas, each in a process of its own: they wait out 429s for a minute or more.
  'src/selfcheck/rate-limited.test.js',
  // Files that mostly wait (on child processes, Chromium, injected latency): beside the self-check, its workers fill
  // their waits; at the end of the run, with nothing beside them, those waits left a core idle.
  'test/hostile/exit-path.test.js',
  'src/reporters/html.browser.test.js',
  'simulator/dashboard/dashboard.browser.test.js',
  'test/concurrency.test.js',
  // Then the longest of the rest, so that the run does not end on one of them alone.
  'test/hostile/full-run.test.js',
  'src/cli/consistency.test.js',
  'test/packaging/installed.test.js',
  'src/engine/verdict.test.js',
  'scripts/doc-samples.test.js',
  'src/engine/id-sources.test.js',
  // Last by name and 18 s long (it lints planted files): left in its place, the run ended on it alone for 10 s.
  'test/size-limits.test.js',
];

function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

/** Every test file under build/, relative to the package root, those of FIRST first and the rest in path order. */
export function testFiles(base = root) {
  const build = join(base, 'build');
  const all = TREES.flatMap((tree) => walk(join(build, tree))).map((path) => relative(base, path)).sort();
  const first = FIRST.map((name) => join('build', name));
  const missing = first.filter((path) => !all.includes(path));
  if (missing.length > 0) throw new Error(`scripts/test-files.mjs: FIRST names ${missing.join(', ')}, which the build does not hold (renamed? run npm run build first)`);
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
