// rdx diff: what changed between two runs (report.json or bundle.tar.gz), for a person (console), a pull request
// or job summary (Markdown) and a program (JSON). With --fail-on-regression it is a CI gate: exit 1 when a MUST case
// fails or errs that did not, a MUST case judged in the old run is unjudged or absent in the new one, the verdict got
// worse, or (--fail-on should) a SHOULD case newly warns or, judged in the old run, is unjudged or absent in the new one.
import type { Argv } from 'yargs';
import { appendFileSync, writeFileSync } from 'node:fs';
import { EXIT, UsageError } from '../../errors.js';
import { oneLine } from '../../reporters/console.js';
import { escapeJsonForTerminal, escapeTerminal } from '../../core/terminal.js';
import { diffMarkdown, diffReports, diffText, readRun } from '../../reporters/diff.js';

const FORMATS = ['console', 'markdown', 'json'] as const;

export function builder(y: Argv): Argv {
  return y
    .usage('rdx diff <old> <new> [options]\n\nWhat changed between two runs: cases newly failing, newly passing and newly unjudged, clauses, open points observed differently, and the target\'s latency. Each run is a report.json or a bundle.tar.gz (checked against its manifest first).')
    .positional('old', { type: 'string', describe: 'The earlier run: report.json or bundle.tar.gz (e.g. the last green run of main)' })
    .positional('new', { type: 'string', describe: 'The later run: report.json or bundle.tar.gz' })
    .option('format', { type: 'string', choices: FORMATS, default: 'console', describe: 'What to print on stdout: console text, Markdown (pull-request comment, job summary) or JSON' })
    .option('markdown', { type: 'string', describe: 'Also write the Markdown to this file, replacing what it holds' })
    .option('markdown-append', { type: 'string', describe: 'Also append the Markdown to this file, after what it holds (a CI job summary: "$GITHUB_STEP_SUMMARY")' })
    .option('json', { type: 'string', describe: 'Also write the JSON to this file' })
    .option('fail-on-regression', { type: 'boolean', describe: 'Exit 1 on a regression: a MUST case newly failing or erring, a MUST case judged before and now unjudged or absent, a worse verdict (a CI gate against the last green run)' })
    .option('fail-on', { choices: ['must', 'should'], describe: 'With "should", a SHOULD case that newly warns, or that was judged in the old run and is unjudged or absent in the new one, is a regression too (default: the new run\'s own --fail-on)' })
    .example('rdx diff main/report.json reports/latest/report.json', 'What changed since the run of main')
    .example('rdx diff last-green.tar.gz reports/latest/bundle.tar.gz --markdown-append "$GITHUB_STEP_SUMMARY" --fail-on-regression', 'Gate a pull request, with the changes added to the job page');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const oldFile = typeof argv['old'] === 'string' ? argv['old'] : '';
  const newFile = typeof argv['new'] === 'string' ? argv['new'] : '';
  if (!oldFile || !newFile) throw new UsageError('rdx diff: name two runs, the old one first (report.json or bundle.tar.gz)');
  const failOn = argv['failOn'] === 'should' ? 'should' : argv['failOn'] === 'must' ? 'must' : undefined;
  const diff = diffReports(oldFile, readRun(oldFile), newFile, readRun(newFile), failOn ? { failOn } : {});
  const json = `${JSON.stringify(diff, null, 2)}\n`;
  const write = (file: string, text: string, append = false): void => {
    try {
      // Appended after a blank line, so the Markdown starts a block of its own below what an earlier step wrote.
      if (append) appendFileSync(file, `\n${text}`);
      else writeFileSync(file, text);
    } catch (error) {
      throw new UsageError(`${file}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'RDX_ERR_WRITE');
    }
  };
  if (typeof argv['markdown'] === 'string') write(argv['markdown'], diffMarkdown(diff));
  if (typeof argv['markdownAppend'] === 'string') write(argv['markdownAppend'], diffMarkdown(diff), true);
  if (typeof argv['json'] === 'string') write(argv['json'], json);
  const format = String(argv['format'] ?? 'console');
  // Every field comes from the two files: nothing reaches a terminal raw. JSON keeps its value (\u escapes).
  const text = format === 'json' ? (process.stdout.isTTY ? escapeJsonForTerminal(json) : json)
    : escapeTerminal(format === 'markdown' ? diffMarkdown(diff) : diffText(diff, (t) => oneLine(t, 160)), { keepNewlines: true });
  process.stdout.write(text);
  return argv['failOnRegression'] === true && diff.regressions > 0 ? EXIT.MUST_FAILED : EXIT.OK;
}
