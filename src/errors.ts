// The harness's own failures (bad usage, bad config, unreachable target) as opposed to an implementation's
// failures, which are verdicts. Each carries the exit code the README documents.
import { escapeTerminal } from './reporters/terminal.js';

export const EXIT = {
  /** Every MUST case passed. */
  OK: 0,
  /** At least one MUST case failed. */
  MUST_FAILED: 1,
  /** Usage, config or suite-file error. */
  USAGE: 2,
  /** The target could not be reached, no token could be obtained, or no container engine is available. */
  UNREACHABLE: 3,
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

/** Prints a fatal error as one clear line (never a stack trace for a known error) and returns its exit code. */
export function reportFatal(error: unknown): number {
  if (error instanceof HarnessError) {
    // A message may quote the target (its token endpoint's answer): escaped like every console line.
    process.stderr.write(`rdx: ${escapeTerminal(error.message, { keepNewlines: true })}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`rdx: internal error: ${escapeTerminal(message, { keepNewlines: true })}\n`);
  if (process.env['RDX_DEBUG'] && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 70;
}
