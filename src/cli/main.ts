#!/usr/bin/env node
// The rdx command line. Each command lives in src/cli/commands/<name>.ts and is imported only when it runs,
// so `rdx --help` stays fast and heavy modules (faker, testcontainers) load only for the commands that need them.
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { EXIT, UsageError, reportFatal } from '../errors.js';

interface LazyCommand {
  name: string;
  command: string;
  describe: string;
  load: () => Promise<{ builder: (y: Argv) => Argv; handler: (argv: Record<string, unknown>) => Promise<number> }>;
}

export const COMMANDS: LazyCommand[] = [
  { name: 'run', command: 'run', describe: 'Run the conformance suites against a base URL or the bundled simulator', load: () => import('./commands/run.js') },
  { name: 'list', command: 'list', describe: 'List the cases (id, level, clauses, endpoints, tier)', load: () => import('./commands/list.js') },
  { name: 'validate', command: 'validate [files..]', describe: 'Check suite files and a config file', load: () => import('./commands/validate.js') },
  { name: 'init', command: 'init', describe: 'Write a commented target profile (rdx.config.yaml)', load: () => import('./commands/init.js') },
  { name: 'simulate', command: 'simulate', describe: 'Start the reference simulator of the whole API', load: () => import('./commands/simulate.js') },
  { name: 'report', command: 'report <reports..>', describe: 'Render report.html and junit.xml from report.json files, merging shards', load: () => import('./commands/report.js') },
  { name: 'diff', command: 'diff <old> <new>', describe: 'What changed between two runs (report.json or bundle.tar.gz): failures, fixes, clauses, open points, latency', load: () => import('./commands/diff.js') },
  { name: 'badge', command: 'badge <report>', describe: 'Write an SVG badge of a run\'s verdict from a report.json or a verified bundle', load: () => import('./commands/badge.js') },
  { name: 'verify', command: 'verify <bundle>', describe: 'Check a certification bundle (bundle.tar.gz) against its manifest, offline', load: () => import('./commands/verify.js') },
];

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.OK;
  const cli = yargs(argv)
    .scriptName('rdx')
    .strict()
    .demandCommand(1, 'Name a command: rdx <command> --help')
    .help()
    .version()
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    });
  // Only the command being run is imported (yargs builders are synchronous, so it is loaded up front).
  const wanted = argv.find((a) => !a.startsWith('-'));
  const selected = COMMANDS.find((c) => c.name === wanted);
  const module = selected ? await selected.load() : undefined;
  for (const c of COMMANDS) {
    cli.command(
      c.command,
      c.describe,
      (y: Argv) => (c === selected && module ? module.builder(y) : y),
      async (args: Record<string, unknown>) => {
        if (module) exitCode = await module.handler(args);
      },
    );
  }
  try {
    await cli.parseAsync();
  } catch (error) {
    return reportFatal(error);
  }
  return exitCode;
}

main(hideBin(process.argv)).then((code) => {
  process.exitCode = code;
});
