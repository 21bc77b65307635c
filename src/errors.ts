// The harness's own failures (bad usage, bad config, unreachable target) as opposed to an implementation's
// failures, which are verdicts. Each carries the exit code the README documents.
import { escapeTerminal } from './core/terminal.js';

export const EXIT = {
  /** CONFORMANT or KNOWN_FAILURES (or INCOMPLETE with --allow-incomplete). */
  OK: 0,
  /** NOT_CONFORMANT: a MUST case failed or errored (with --fail-on should, also a SHOULD warning). */
  MUST_FAILED: 1,
  /** Usage, config or suite-file error. */
  USAGE: 2,
  /** Nothing to judge: the target could not be reached, refused the credentials, has no token endpoint at that URL; or no container engine. */
  UNREACHABLE: 3,
  /** INCOMPLETE: some MUST case was not judged (summary.toComplete says what unlocks it). */
  INCOMPLETE: 4,
  /**
   * rdx verify, rdx badge: the bundle agrees with itself, but nothing says it is the one published (no pinned
   * manifest hash, no public key to check its signature). Never a verified certificate.
   */
  INTEGRITY_ONLY: 5,
  /** A bug in the harness itself (EX_SOFTWARE of sysexits.h), never a verdict on the implementation. */
  INTERNAL: 70,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class HarnessError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly code: string,
  ) {
    super(message);
    this.name = 'HarnessError';
  }
}

export class UsageError extends HarnessError {
  constructor(message: string, code = 'RDX_ERR_USAGE') {
    super(message, EXIT.USAGE, code);
  }
}

export class UnreachableError extends HarnessError {
  constructor(message: string, code = 'RDX_ERR_UNREACHABLE') {
    super(message, EXIT.UNREACHABLE, code);
  }
}

/** Where users report a bug of the harness; the same words are in docs/exit-codes.md. */
export const REPORT_BUGS_TO = 'report it as an issue of rdx-conformance with this line and `rdx --version`';

/**
 * Prints a fatal error as one line and returns its exit code. A known error is the user's to fix and carries its
 * own exit code. Anything else is a bug of the harness: exit 70, what happened and where, and where to report it;
 * the stack trace only with --debug (or RDX_DEBUG=1).
 */
export function reportFatal(error: unknown, debug = debugWanted()): number {
  if (error instanceof HarnessError) {
    // A message may quote the target (its token endpoint's answer): escaped like every console line.
    process.stderr.write(`rdx: ${escapeTerminal(error.message, { keepNewlines: true })}\n`);
    return error.exitCode;
  }
  process.stderr.write(`rdx: ${escapeTerminal(internalErrorLine(error))}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return EXIT.INTERNAL;
}

/** The one line an internal error gets: what happened, where in the harness, where to report it. */
export function internalErrorLine(error: unknown): string {
  const e = error instanceof Error ? error : undefined;
  const message = (e?.message ?? String(error)).split('\n')[0]?.trim() || (e?.name ?? 'unknown error');
  // A package the harness imports is missing: the installation is broken, not the harness's logic.
  const missing = (e as { code?: string } | undefined)?.code === 'ERR_MODULE_NOT_FOUND' ? /Cannot find package '([^']+)'/.exec(message)?.[1] : undefined;
  if (missing) {
    return `internal error: the package ${missing} is not installed beside rdx-conformance (a packaging bug); ` +
      `reinstall rdx-conformance, and ${REPORT_BUGS_TO}`;
  }
  const where = e?.stack ? whereIn(e.stack) : undefined;
  return `internal error (a bug in rdx, not in the implementation under test): ${message}${where ? ` (at ${where})` : ''}; ` +
    `${REPORT_BUGS_TO} (rerun with --debug for the stack trace)`;
}

/** The first stack frame outside node's own modules and node_modules, as path:line relative to the package. */
function whereIn(stack: string): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const m = /\(?(?:file:\/\/)?([^()\s]+):(\d+):\d+\)?\s*$/.exec(line);
    if (!m?.[1] || m[1].startsWith('node:') || m[1].includes('/node_modules/')) continue;
    const i = m[1].lastIndexOf('/dist/');
    return `${i >= 0 ? m[1].slice(i + 1) : m[1]}:${m[2]}`;
  }
  return undefined;
}

export function debugWanted(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--debug') || /^(1|true|yes)$/i.test(env['RDX_DEBUG'] ?? '');
}
