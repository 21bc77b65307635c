// The slowest test files: runs mocha (by default over what `npm test` runs, after `npm run build`, but one file after
// the other: side by side, a file's time would be its neighbour's too) with a reporter that times each file, then
// prints the slowest 15 and the whole run as a Markdown table (docs/testing.md holds one).
//
//   node scripts/test-timings.mjs                       every test file, as npm test runs them (without c8)
//   node scripts/test-timings.mjs --c8                  under c8, as npm test does (slower: coverage is collected)
//   node scripts/test-timings.mjs 'build/test/**/*.test.js' --top 30
//   node scripts/test-timings.mjs --from timings.json   print the table of an earlier run's timings
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { testFiles } from './test-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function option(argv, name) {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  argv.splice(at, 2);
  return value;
}

const seconds = (ms) => (ms / 1000).toFixed(1);

/** The Markdown table of the slowest `top` files of a timings file, and the whole run. */
export function table(timings, top = 15) {
  const files = [...timings.files].sort((a, b) => b.ms - a.ms);
  const summed = files.reduce((sum, f) => sum + f.ms, 0);
  const lines = ['| # | Test file | Tests | Time (s) | Share |', '|---:|---|---:|---:|---:|'];
  files.slice(0, top).forEach((f, i) => {
    const name = relative(root, f.file).replace(/^build\//, '').replace(/\.js$/, '.ts');
    lines.push(`| ${i + 1} | \`${name}\` | ${f.tests} | ${seconds(f.ms)} | ${Math.round((100 * f.ms) / Math.max(summed, 1))} % |`);
  });
  lines.push('', `Whole mocha run: ${seconds(timings.totalMs)} s over ${files.length} files (${files.reduce((n, f) => n + f.tests, 0)} tests).`);
  return `${lines.join('\n')}\n`;
}

function main(argv) {
  const args = [...argv];
  const top = Number(option(args, '--top') ?? 15);
  const from = option(args, '--from');
  if (from) {
    process.stdout.write(table(JSON.parse(readFileSync(from, 'utf8')), top));
    return 0;
  }
  const c8 = args.includes('--c8');
  const globs = args.filter((a) => a !== '--c8');
  const output = join(mkdtempSync(join(tmpdir(), 'rdx-timings-')), 'timings.json');
  const mocha = [join(root, 'node_modules/mocha/bin/mocha.js'), ...(globs.length ? globs : testFiles()),
    '--reporter', join(root, 'scripts/test-timings-reporter.cjs'), '--reporter-option', `output=${output}`];
  const command = c8 ? [join(root, 'node_modules/c8/bin/c8.js'), 'node', ...mocha] : mocha;
  const started = performance.now();
  const run = spawnSync(process.execPath, command, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  const wall = performance.now() - started;
  const timings = JSON.parse(readFileSync(output, 'utf8'));
  process.stdout.write(`\n${table(timings, top)}Process wall time: ${seconds(wall)} s${c8 ? ' (under c8)' : ''}; timings kept in ${output}.\n`);
  return run.status ?? 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
