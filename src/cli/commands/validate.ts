// rdx validate: checks suite files (and a config file) and reports each problem as file:line: field: message.
import type { Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { allChecks } from '../../checks/index.js';
import { DEFAULT_CONFIG_FILES, readConfigFile, readProfileSchema } from '../../config/profile.js';
import { SuiteError, formatProblem, lintCases, listSuiteFiles, loadSuites, type CaseDef } from '../../engine/suite.js';
import { UsageError } from '../../errors.js';

export function loadSuitesOrUsage(files?: string[]): CaseDef[] {
  try {
    const cases = loadSuites(files);
    const problems = lintCases(cases, new Set(allChecks().map((c) => c.id)));
    if (problems.length) throw new SuiteError(problems);
    return cases;
  } catch (error) {
    if (error instanceof SuiteError) throw new UsageError(`bad suite file(s):\n${error.problems.map(formatProblem).join('\n')}`, 'RDX_ERR_SUITE');
    throw error;
  }
}

/**
 * Whether a file given to validate is a target profile rather than a suite: named like one (rdx.config.yaml), or a
 * map without `cases` whose keys are all profile keys. A file that cannot be read or parsed is left to the suite
 * loader, which says what is wrong with it.
 */
export function isProfileFile(file: string): boolean {
  if (DEFAULT_CONFIG_FILES.includes(basename(file)) || /^rdx\.config\./.test(basename(file))) return true;
  let top: unknown;
  try {
    top = parseYaml(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  if (!top || typeof top !== 'object' || Array.isArray(top) || 'cases' in top) return false;
  const keys = Object.keys((readProfileSchema()['properties'] ?? {}) as object);
  return Object.keys(top).length > 0 && Object.keys(top).every((k) => keys.includes(k));
}

/**
 * Checks a profile as `rdx run --config` reads it, except that a ${env:NAME} not set here is a note, not an error:
 * the variables are the run's, and CI sets them only where the run happens.
 */
function validateProfile(file: string): string[] {
  const unset = new Set<string>();
  const env = new Proxy({ ...process.env }, {
    get(target, name) {
      if (typeof name !== 'string' || name in target) return Reflect.get(target, name) as unknown;
      unset.add(name);
      return `\${env:${name}}`;
    },
  });
  readConfigFile(file, env);
  return [...unset].map((name) => `note: ${name} is not set here; rdx run will need it (the profile reads \${env:${name}})`);
}

export function builder(y: Argv): Argv {
  return y
    .usage('rdx validate [files..]\n\nChecks suite files against suites/suite.schema.json and the spec registers (default: every file under suites/), and target profiles (rdx.config.yaml, given as a file or with --config) against src/config/rdx.config.schema.json.')
    .positional('files', { type: 'string', array: true, describe: 'Suite files or target profiles to check (default: every suite file under suites/)' })
    .option('config', { alias: 'c', type: 'string', describe: 'Also check this target profile' });
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const given = ((argv['files'] as unknown[] | undefined) ?? []).map((f) => resolve(String(f)));
  const profiles = [...given.filter(isProfileFile), ...(typeof argv['config'] === 'string' ? [resolve(argv['config'])] : [])];
  const suites = given.filter((f) => !isProfileFile(f));
  const lines: string[] = [];
  if (suites.length || !given.length) {
    const files = suites.length ? suites : listSuiteFiles();
    const cases = loadSuitesOrUsage(files);
    lines.push(`ok: ${cases.length} case(s) in ${files.length} suite file(s)`);
  }
  for (const file of profiles) {
    const notes = validateProfile(file);
    const shown = relative(process.cwd(), file) || file;
    lines.push(`ok: ${shown} is a target profile, valid against src/config/rdx.config.schema.json; run it with: rdx run --config ${shown}`, ...notes);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
