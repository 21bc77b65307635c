// The size limits of eslint.config.js (lines per function, per file) and their exceptions list
// (eslint.size-exceptions.json), which may only get shorter: an added entry fails here, and so does an entry whose
// ceiling is no longer what its file measures (lower it, or remove the entry once the file fits).
import { expect } from 'chai';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { packageRoot } from '../src/spec/index.js';

type Rule = 'max-lines-per-function' | 'max-lines';
const RULES: Rule[] = ['max-lines-per-function', 'max-lines'];

/**
 * How many entries each part of the list had when the limits were set (8 files with a function over 80 lines, 7
 * files over 400). Lower a number when an entry goes; never raise it.
 */
const ENTRIES_AT_MOST: Record<Rule, number> = { 'max-lines-per-function': 4, 'max-lines': 2 };

interface SizeConfig {
  SIZE_LIMITS: Record<Rule, number>;
  SIZE_COUNTING: Record<string, boolean>;
  TEST_FILES: string[];
  SIZE_EXCEPTIONS: Record<string, Record<string, number> | string>;
  LINE_LENGTH: { code: number };
}

const config = (): Promise<SizeConfig> => import(pathToFileURL(join(packageRoot, 'eslint.config.js')).href) as Promise<SizeConfig>;
const exceptionsOf = (c: SizeConfig, rule: Rule): Record<string, number> => c.SIZE_EXCEPTIONS[rule] as Record<string, number>;

/** Per file over a limit (the limits alone, no exceptions): its size (for functions: its longest function's). */
async function offenders(c: SizeConfig): Promise<Record<Rule, Record<string, number>>> {
  const limits = Object.fromEntries(RULES.map((rule) => [rule, ['error', { max: c.SIZE_LIMITS[rule], ...c.SIZE_COUNTING }] as ['error', object]]));
  const eslint = new ESLint({
    cwd: packageRoot,
    // Applied after eslint.config.js: the limits everywhere, the test files' exemption kept.
    overrideConfig: [{ rules: limits }, { files: c.TEST_FILES, rules: { 'max-lines-per-function': 'off' } }],
    ruleFilter: ({ ruleId }) => (RULES as string[]).includes(ruleId),
  });
  const found: Record<Rule, Record<string, number>> = { 'max-lines-per-function': {}, 'max-lines': {} };
  for (const result of await eslint.lintFiles(['.'])) {
    const file = result.filePath.slice(packageRoot.length + 1).split('\\').join('/');
    for (const m of result.messages) {
      const rule = m.ruleId as Rule;
      const size = Number(/\((\d+)\)/.exec(m.message)?.[1]);
      if (!RULES.includes(rule) || !Number.isInteger(size)) continue;
      found[rule][file] = Math.max(found[rule][file] ?? 0, size);
    }
  }
  return found;
}

describe('size limits (eslint.config.js, eslint.size-exceptions.json)', function () {
  this.timeout(300_000);

  it('lists exactly the files over a limit, each with its size as its ceiling, and no more entries than before', async () => {
    const c = await config();
    expect(c.SIZE_LIMITS).to.deep.equal({ 'max-lines-per-function': 80, 'max-lines': 400 });
    const measured = await offenders(c);
    for (const rule of RULES) {
      const listed = exceptionsOf(c, rule);
      expect(listed, `${rule}: eslint.size-exceptions.json against what each file measures (fix the file, or lower or remove its entry)`)
        .to.deep.equal(measured[rule]);
      expect(Object.keys(listed).length, `${rule}: entries (the list may only get shorter; lower ENTRIES_AT_MOST when one goes)`)
        .to.equal(ENTRIES_AT_MOST[rule]);
    }
  });

  it('makes eslint refuse a function or a file one line over its limit, and a listed file one line over its ceiling', async () => {
    const c = await config();
    const eslint = new ESLint({ cwd: packageRoot, ruleFilter: ({ ruleId }) => (RULES as string[]).includes(ruleId) });
    const fn = (lines: number): string => `export function f(): number {\n${'  let x = 0;\n'.repeat(lines - 3)}  return 0;\n}\n`;
    const rulesOf = async (text: string, file: string): Promise<string[]> =>
      (await eslint.lintText(text, { filePath: join(packageRoot, file) }))[0]?.messages.map((m) => String(m.ruleId)) ?? [];
    const limit = c.SIZE_LIMITS['max-lines-per-function'];
    expect(await rulesOf(fn(limit), 'src/core/probe.ts')).to.deep.equal([]);
    expect(await rulesOf(fn(limit + 1), 'src/core/probe.ts')).to.deep.equal(['max-lines-per-function']);
    // Blank lines and comments are not counted.
    expect(await rulesOf(fn(limit).replace('{\n', '{\n\n  // a comment\n'), 'src/core/probe.ts')).to.deep.equal([]);
    // A test's describe() callback may be long; a test file may not.
    expect(await rulesOf(fn(limit + 1), 'src/core/probe.test.ts')).to.deep.equal([]);
    const file = (lines: number): string => 'export const a = 1;\n'.repeat(lines);
    expect(await rulesOf(file(c.SIZE_LIMITS['max-lines']), 'src/core/probe.ts')).to.deep.equal([]);
    expect(await rulesOf(file(c.SIZE_LIMITS['max-lines'] + 1), 'src/core/probe.test.ts')).to.deep.equal(['max-lines']);
    // A listed file is held to its own ceiling.
    const [listed, ceiling] = Object.entries(exceptionsOf(c, 'max-lines'))[0] ?? ['', 0];
    expect(await rulesOf(file(ceiling), listed)).to.deep.equal([]);
    expect(await rulesOf(file(ceiling + 1), listed)).to.deep.equal(['max-lines']);
  });

  it('makes eslint refuse a line of code one character over the line length, in any file, and let a long string be', async () => {
    const c = await config();
    expect(c.LINE_LENGTH.code).to.equal(160);
    const eslint = new ESLint({ cwd: packageRoot, ruleFilter: ({ ruleId }) => ruleId === 'max-len' });
    const rulesOf = async (text: string, file: string): Promise<string[]> =>
      (await eslint.lintText(text, { filePath: join(packageRoot, file) }))[0]?.messages.map((m) => String(m.ruleId)) ?? [];
    // `export const abbb… = 1;`, exactly `length` characters long (and a newline).
    const line = (length: number): string => `export const a${'b'.repeat(length - 19)} = 1;\n`;
    expect(line(161)).to.have.length(162);
    for (const file of ['src/core/probe.ts', 'test/probe.test.ts', 'scripts/probe.ts']) {
      expect(await rulesOf(line(c.LINE_LENGTH.code + 1), file), file).to.deep.equal(['max-len']);
      expect(await rulesOf(line(c.LINE_LENGTH.code), file), file).to.deep.equal([]);
    }
    // A message or a pattern read whole is allowed to run on.
    expect(await rulesOf(`export const s = '${'x'.repeat(200)}';\n`, 'src/core/probe.ts')).to.deep.equal([]);
  });
});
