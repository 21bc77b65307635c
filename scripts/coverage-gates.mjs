// The coverage gates of `npm test`, read from c8's json-summary (coverage/coverage-summary.json, written by the c8
// run just before; .c8rc.json makes the source product code only: test infrastructure is excluded there). Files are
// named by their TypeScript source (c8 reads the source maps); one that compiles to no code is not judged.
//
// - global: the product code every machine runs (all of it but SERVICE files) meets GLOBAL, summed over its files;
// - per file: each of those files meets FLOOR, so one untested new module cannot hide behind a good average;
// - per service: the files only an optional machine service reaches are gated where that service is required to
//   run (CI sets RDX_REQUIRE_CONTAINER_ENGINE=1 once it has started a Docker engine), and not elsewhere, where
//   their tests skip and the files read as uncovered.
// Exit 0 when every gate holds, 1 otherwise (saying which file and which measure).
import { existsSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MEASURES = ['lines', 'statements', 'branches', 'functions'];

/** Over all product files but the SERVICE ones: just under what a machine without Docker and Chromium measures. */
export const GLOBAL = { lines: 96, statements: 96, branches: 86, functions: 97 };
/** Every product file but the SERVICE ones: an untested module (its functions never called) falls below it. */
export const FLOOR = { lines: 70, statements: 70, branches: 40, functions: 50 };
/**
 * What only an optional service reaches, gated at its own thresholds where the service is required to run. The
 * Docker thresholds are what a machine without an engine measures (lines 55.8%): the engine's tests can only add to
 * that; raise them to just under what CI measures. Chromium has no entry: the code only a browser runs is the
 * browser bundles, which c8 (measuring node) does not see; RDX_REQUIRE_CHROMIUM=1 makes CI run the browser tests.
 */
export const SERVICES = [
  {
    name: 'Docker engine',
    env: 'RDX_REQUIRE_CONTAINER_ENGINE',
    files: ['src/container/index.ts'],
    // Measured in CI with the engine (7af5563): lines and statements 84.86 %, branches 69.47 %, functions 85.29 %.
    thresholds: { lines: 82, statements: 82, branches: 66, functions: 82 },
  },
];

const pct = (covered, total) => (total === 0 ? 100 : (100 * covered) / total);
const shown = (n) => `${n.toFixed(2)}%`;

/** The failures of `measures` (per measure: covered, total) against `thresholds`, as "lines 93.10% < 94%". */
function below(measures, thresholds) {
  return MEASURES.filter((m) => thresholds[m] !== undefined && pct(measures[m].covered, measures[m].total) < thresholds[m])
    .map((m) => `${m} ${shown(pct(measures[m].covered, measures[m].total))} < ${thresholds[m]}%`);
}

function sum(entries) {
  const total = Object.fromEntries(MEASURES.map((m) => [m, { covered: 0, total: 0 }]));
  for (const entry of entries) for (const m of MEASURES) {
    total[m].covered += entry[m].covered;
    total[m].total += entry[m].total;
  }
  return total;
}

/**
 * Whether the source file compiled to no code at all (declarations only: `export {};`): never loaded, such a file
 * reads as 0% covered, though there is nothing in it to run.
 */
export function typeOnly(source, base = root) {
  const built = join(base, 'build', source.replace(/\.ts$/, '.js'));
  if (!source.endsWith('.ts') || !existsSync(built)) return false;
  const code = readFileSync(built, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/export\s*\{\s*\};?/g, '');
  return code.trim() === '';
}

/**
 * Judges a c8 json-summary (its keys are the source files, through the source maps); `env` says which services were
 * required to run. Returns the lines to print and the failures.
 */
export function judge(summary, env, base = root) {
  const all = Object.entries(summary).filter(([name]) => name !== 'total')
    .map(([name, measures]) => [relative(base, name).split('\\').join('/'), measures]);
  const files = all.filter(([name]) => !typeOnly(name, base));
  const lines = [];
  const failures = [];
  const serviceOf = (file) => SERVICES.find((s) => s.files.includes(file));

  for (const service of SERVICES) {
    const missing = service.files.filter((f) => !files.some(([name]) => name === f));
    if (missing.length > 0) failures.push(`${service.name}: ${missing.join(', ')} not in the coverage source (renamed? update scripts/coverage-gates.mjs)`);
  }

  const everywhere = files.filter(([name]) => !serviceOf(name));
  const global = sum(everywhere.map(([, m]) => m));
  lines.push(`${all.length - files.length} files hold types only (no code to run), not judged`);
  lines.push(`global, ${everywhere.length} product files every machine runs: ${MEASURES.map((m) => `${m} ${shown(pct(global[m].covered, global[m].total))} (≥ ${GLOBAL[m]}%)`).join(', ')}`);
  failures.push(...below(global, GLOBAL).map((f) => `global: ${f}`));

  for (const [name, measures] of everywhere) failures.push(...below(measures, FLOOR).map((f) => `${name}: ${f} (the per-file floor)`));
  lines.push(`per file, the same ${everywhere.length} files: each ${MEASURES.map((m) => `${m} ≥ ${FLOOR[m]}%`).join(', ')}`);

  for (const service of SERVICES) {
    const measured = files.filter(([name]) => service.files.includes(name));
    const total = sum(measured.map(([, m]) => m));
    const now = MEASURES.map((m) => `${m} ${shown(pct(total[m].covered, total[m].total))}`).join(', ');
    if (env[service.env] !== '1') {
      lines.push(`${service.name} (${service.files.join(', ')}): ${now}, not gated here (${service.env} is not 1: its tests may skip)`);
      continue;
    }
    lines.push(`${service.name} (${service.files.join(', ')}): ${MEASURES.map((m) => `${m} ${shown(pct(total[m].covered, total[m].total))} (≥ ${service.thresholds[m]}%)`).join(', ')}`);
    failures.push(...below(total, service.thresholds).map((f) => `${service.name}: ${f}`));
  }
  return { lines, failures };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? join(root, 'coverage', 'coverage-summary.json');
  let summary;
  try {
    summary = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    process.stderr.write(`coverage gates: cannot read ${file} (${error.message}); run c8 with the json-summary reporter first\n`);
    process.exit(1);
  }
  const { lines, failures } = judge(summary, process.env);
  process.stdout.write(`\nCoverage gates (scripts/coverage-gates.mjs):\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  if (failures.length > 0) {
    process.stderr.write(`coverage gates failed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
    process.exit(1);
  }
}
