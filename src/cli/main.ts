#!/usr/bin/env node
// The rdx command line. Each command lives in src/cli/commands/<name>.ts and is imported only when it runs,
// so `rdx --help` stays fast and heavy modules (faker, testcontainers) load only for the commands that need them.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Argv } from 'yargs';
import yargs, { hideBin } from './yargs.js';
import { EXIT, UsageError, debugWanted, reportFatal } from '../errors.js';
import { runAsProgram } from './exit.js';
import { didYouMean } from '../core/suggest.js';
import { harnessVersion } from '../version.js';

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
  { name: 'keygen', command: 'keygen', describe: 'Write an Ed25519 key pair for signing certification bundles', load: () => import('./commands/keygen.js') },
  { name: 'verify', command: 'verify <bundle>', describe: 'Check a certification bundle (bundle.tar.gz) against its manifest, offline', load: () => import('./commands/verify.js') },
];

/**
 * yargs renders a command's whole help text before running it, in case a failure later wants to show it; ours never
 * does (.fail throws, reportFatal prints), and for `rdx simulate` that rendering was a third of the start-up.
 * Help asked for with --help is rendered as before.
 */
function skipHelpCache(cli: Argv): void {
  const internal = (cli as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } })
    .getInternalMethods?.().getUsageInstance?.();
  if (internal?.cacheHelpMessage) internal.cacheHelpMessage = () => undefined;
}

/** The options every command takes (docs/cli.md lists them from here). */
export function globalOptions(y: Argv): Argv {
  return y
    .option('debug', { type: 'boolean', global: true, describe: 'On an internal error (exit 70) also print the stack trace; env RDX_DEBUG=1 does the same' })
    .help()
    // Given, not looked up: yargs would read the nearest package.json of the process (the vendor's project).
    .version(harnessVersion);
}

export async function main(argv: string[]): Promise<number> {
  // --debug reaches the engine and the simulator through the environment, as RDX_DEBUG does.
  if (debugWanted(argv)) process.env['RDX_DEBUG'] = '1';
  let exitCode: number = EXIT.OK;
  // The long option names of the command being parsed, for "did you mean" on a mistyped flag.
  let flags: string[] = [];
  // Only the command being run is imported (yargs builders are synchronous, so it is loaded up front).
  const wanted = argv.find((a) => !a.startsWith('-'));
  const selected = COMMANDS.find((c) => c.name === wanted);
  try {
    const module = selected ? await selected.load() : undefined;
    const cli = globalOptions(yargs(argv))
      .scriptName('rdx')
      .strict()
      .recommendCommands()
      .demandCommand(1, 'Name a command: rdx <command> --help')
      .fail((message, error) => {
        throw error ?? new UsageError(usageMessage(message, argv, wanted, flags.length ? flags : optionNames(cli)));
      });
    for (const c of COMMANDS) {
      cli.command(
        c.command,
        c.describe,
        (y: Argv) => {
          const built = c === selected && module ? module.builder(y) : y;
          if (c === selected) flags = optionNames(built);
          return built;
        },
        async (args: Record<string, unknown>) => {
          if (module) exitCode = await module.handler(args);
        },
      );
    }
    skipHelpCache(cli);
    await cli.parseAsync();
  } catch (error) {
    gaveUp = true;
    return reportFatal(error);
  }
  return exitCode;
}

/** Set when main ended on an error: whatever the command had opened (an embedded simulator, sockets) is left over. */
let gaveUp = false;

/** yargs' own usage messages, with the typo named and a suggestion where one is close. */
function usageMessage(message: string, argv: string[], command: string | undefined, known: string[]): string {
  const recommended = /^Did you mean (\S+)\?$/.exec(message)?.[1];
  if (recommended) return `unknown command ${JSON.stringify(command)}: did you mean \`rdx ${recommended}\`? (rdx --help lists the commands)`;
  if (!message) return 'Name a command: rdx <command> --help';
  const unknown = /^Unknown arguments?: (.*)$/s.exec(message)?.[1];
  if (!unknown) return message;
  // yargs names each unknown flag twice (base-ur1 and baseUr1): keep the spelling the user typed.
  const names = unknown.split(', ').filter((n, _, all) => !(/[A-Z]/.test(n) && all.includes(n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))));
  // The flag as typed (--no-such-flag reaches yargs as such-flag).
  const typed = (n: string): string | undefined => argv.find((a) => new RegExp(`^--?(no-)?${escapeRegExp(n)}(=|$)`).test(a))?.split('=')[0];
  const isFlag = (n: string): boolean => typed(n) !== undefined;
  const flagParts = names.filter(isFlag).map((n) => {
    const suggestion = didYouMean(n, known);
    return `${typed(n) ?? `--${n}`}${suggestion ? ` (did you mean --${suggestion}?)` : ''}`;
  });
  const extra = names.filter((n) => !isFlag(n));
  const help = command && COMMANDS.some((c) => c.name === command) ? `rdx ${command} --help` : 'rdx --help';
  return [
    ...(flagParts.length ? [`unknown ${flagParts.length > 1 ? 'options' : 'option'}: ${flagParts.join(', ')}`] : []),
    ...(extra.length ? [`unexpected ${extra.length > 1 ? 'arguments' : 'argument'}: ${extra.join(', ')}`] : []),
  ].join('; ') + `; see ${help}`;
}

function optionNames(y: Argv): string[] {
  const { key } = (y as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions();
  return Object.keys(key).filter((k) => k.length > 1 && !/[A-Z]/.test(k));
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when this module is the program (node …/main.js, or the `rdx` bin link), not imported by docs or tests. */
function isEntryPoint(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  runAsProgram(() => main(hideBin(process.argv)), () => ({ exitNow: gaveUp }));
}
