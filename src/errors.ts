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

/**
 * The code of every HarnessError, which a program can switch on (error.code) as it can on undici's or fastify's:
 * stable across versions, unlike the message. docs/api.md lists them, generated from here (scripts/docs.ts).
 */
export const ERROR_CODES = {
  RDX_ERR_USAGE: { exit: EXIT.USAGE, when: 'a command\'s flags or arguments do not fit together, or one has a value it cannot take' },
  RDX_ERR_OPTIONS: { exit: EXIT.USAGE, when: 'an option of the programmatic API (runConformance, verifyBundle, createBundle) has a value it cannot take' },
  RDX_ERR_CONFIG: { exit: EXIT.USAGE, when: 'the config file is missing, unreadable or invalid, or a profile value (a URL, a limit, an id source, --proxy, --ca) cannot be used' },
  RDX_ERR_NO_TARGET: { exit: EXIT.USAGE, when: 'no target: no base URL given, and no simulator to start instead' },
  RDX_ERR_NO_CREDENTIALS: { exit: EXIT.USAGE, when: 'no client id or client secret given' },
  RDX_ERR_SUITE: { exit: EXIT.USAGE, when: 'a suite file is invalid (each problem as file:line: field: message)' },
  RDX_ERR_NO_CASES: { exit: EXIT.USAGE, when: 'no case matches the filters' },
  RDX_ERR_BASELINE: { exit: EXIT.USAGE, when: 'the baseline file is missing or invalid' },
  RDX_ERR_REPORT: { exit: EXIT.USAGE, when: 'a report.json cannot be read: missing, too large, not JSON, not a report' },
  RDX_ERR_MERGE: { exit: EXIT.USAGE, when: 'reports cannot be merged: the same run twice, or another spec, harness version, --fail-on or target' },
  RDX_ERR_BUNDLE: { exit: EXIT.USAGE, when: 'a bundle cannot be read, is malformed or does not match its manifest' },
  RDX_ERR_KEY: { exit: EXIT.USAGE, when: 'a signing or public key cannot be read or is not the Ed25519 key of its kind' },
  RDX_ERR_WRITE: { exit: EXIT.USAGE, when: 'a file cannot be written, or exists and --force was not given' },
  RDX_ERR_MISSING_PACKAGE: { exit: EXIT.USAGE, when: 'an optional package a flag needs (testcontainers for --image) is not installed' },
  RDX_ERR_UNREACHABLE: { exit: EXIT.UNREACHABLE, when: 'nothing answered at the token endpoint, or a gateway said the service behind it did not' },
  RDX_ERR_CREDENTIALS_REFUSED: { exit: EXIT.UNREACHABLE, when: 'the token endpoint refused the credentials' },
  RDX_ERR_NO_TOKEN_ENDPOINT: { exit: EXIT.UNREACHABLE, when: 'nothing answers as a token endpoint at that URL (404, 405, 410, 501, a redirect elsewhere)' },
  RDX_ERR_NO_ENGINE: { exit: EXIT.UNREACHABLE, when: '--image: no container engine answers' },
  RDX_ERR_CONTAINER: { exit: EXIT.UNREACHABLE, when: '--image: the container could not be started, published or reached' },
} as const satisfies Record<string, { exit: ExitCode; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes whose errors end a command with this exit code. */
type CodeOf<E extends ExitCode> = { [K in ErrorCode]: (typeof ERROR_CODES)[K]['exit'] extends E ? K : never }[ErrorCode];

export class HarnessError extends Error {
  readonly exitCode: ExitCode;

  constructor(message: string, readonly code: ErrorCode) {
    super(message);
    this.name = 'HarnessError';
    this.exitCode = ERROR_CODES[code].exit;
  }
}

export class UsageError extends HarnessError {
  constructor(message: string, code: CodeOf<typeof EXIT.USAGE> = 'RDX_ERR_USAGE') {
    super(message, code);
  }
}

export class UnreachableError extends HarnessError {
  constructor(message: string, code: CodeOf<typeof EXIT.UNREACHABLE> = 'RDX_ERR_UNREACHABLE') {
    super(message, code);
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
    // Relative to the package: dist/ where it is installed, build/ in a checkout's tests.
    const i = Math.max(m[1].lastIndexOf('/dist/'), m[1].lastIndexOf('/build/'));
    return `${i >= 0 ? m[1].slice(i + 1) : m[1]}:${m[2]}`;
  }
  return undefined;
}

export function debugWanted(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--debug') || /^(1|true|yes)$/i.test(env['RDX_DEBUG'] ?? '');
}
