// rdx validate: checks suite files (and a config file) and reports each problem as file:line: field: message.
import type { Argv } from 'yargs';
import { resolve } from 'node:path';
import { allChecks } from '../../checks/index.js';
import { readConfigFile } from '../../config/profile.js';
import { SuiteError, formatProblem, lintCases, listSuiteFiles, loadSuites, type CaseDef } from '../../engine/suite.js';
import { UsageError } from '../../errors.js';

export function loadSuitesOrUsage(files?: string[]): CaseDef[] {
  try {
    const cases = loadSuites(files);
    const problems = lintCases(cases, new Set(allChecks().map((c) => c.id)));
    if (problems.length) throw new SuiteError(problems);
    return cases;
  } catch (error) {
    if (error instanceof SuiteError) throw new UsageError(`bad suite file(s):\n${error.problems.map(formatProblem).join('\n')}`);
    throw error;
  }
}

export function builder(y: Argv): Argv {
  return y
    .usage('rdx validate [files..]\n\nChecks suite files against suites/suite.schema.json and the spec registers (default: every file under suites/).')
    .positional('files', { type: 'string', array: true, describe: 'Suite files to check (default: every file under suites/)' })
    .option('config', { alias: 'c', type: 'string', describe: 'Also check this target profile' });
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const given = ((argv['files'] as unknown[] | undefined) ?? []).map(String);
  const files = given.length ? given.map((f) => resolve(f)) : listSuiteFiles();
  const cases = loadSuitesOrUsage(files);
  if (typeof argv['config'] === 'string') readConfigFile(resolve(argv['config']));
  process.stdout.write(`ok: ${cases.length} case(s) in ${files.length} file(s)${argv['config'] ? `, config ${argv['config']}` : ''}\n`);
  return 0;
}
