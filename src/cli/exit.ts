// The one exit path of the rdx process. The exit code is the verdict a CI gate reads, so it is a failure (70) from
// the first line on and becomes the command's own code only once the command has said it. A process that ends any
// other way (its event loop emptied while the command was still awaiting, an unhandled rejection, an exception off
// the command's path) ends with 70 and one line saying why: never with 0 by accident.
import { EXIT, REPORT_BUGS_TO, reportFatal } from '../errors.js';
import { stillPending } from '../core/pending.js';

export interface ProgramEnd {
  /** Exit at once with this code instead of letting the event loop drain (a command that gave up half-way). */
  exitNow?: boolean;
}

/**
 * Runs a command as the program. `command` resolves to its exit code; `end` says, once it has, whether to exit at
 * once (a command that failed half-way may leave a server or socket open that would keep the process alive).
 */
export function runAsProgram(command: () => Promise<number>, end: () => ProgramEnd = () => ({})): void {
  process.exitCode = EXIT.INTERNAL;
  let settled = false;
  const fatal = (error: unknown): void => {
    settled = true;
    process.exit(reportFatal(error));
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  // Emitted when the event loop has emptied; before the command settled, that means the process would end mid-await.
  process.on('beforeExit', () => {
    if (settled) return;
    settled = true;
    process.stderr.write(`rdx: ${endedEarlyLine(stillPending())}\n`);
    process.exit(EXIT.INTERNAL);
  });
  ignoreClosedStdout();
  command().then(
    (code) => {
      settled = true;
      process.exitCode = code;
      // stdout and stderr are synchronous for files and pipes on POSIX: nothing written is lost by exiting here.
      if (end().exitNow) process.exit(code);
    },
    fatal,
  );
}

/** The line for a process whose event loop emptied before its command ended. */
export function endedEarlyLine(pending: readonly string[]): string {
  const what = pending.length > 0 ? pending.join('; ') : 'the command\'s result';
  return `internal error (a bug in rdx, not in the implementation under test): the process ran out of work while still ` +
    `awaiting ${what}; no result was reached, so the exit code is 70, not a verdict; ${REPORT_BUGS_TO}`;
}

/**
 * A reader that closes the pipe early (`rdx list | head -1`) is not an error of ours: the rest of stdout goes
 * nowhere and the command ends with its own exit code. Any other error of stdout still is one.
 */
function ignoreClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    process.exit(reportFatal(error));
  });
}
