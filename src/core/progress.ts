// The seam between a run and whoever watches it while it runs (rdx run's live progress line): the engine says what
// it starts and finishes, in the order it happens, and knows nothing of terminals.
import type { Verdict } from './results.js';

/** A case as a watcher sees it: its id and the suite file it comes from (suites/auth/bearer.yaml). */
export interface ProgressCase {
  id: string;
  file: string;
}

/** What the run is doing, for a watcher that shows it (one live line on a terminal). */
export interface RunProgress {
  /**
   * The cases begin: how many will run, at what concurrency, and a reading of how long the run has waited on the
   * target so far (its rate limit: throttled answers waited out, plus the client-side pace), in wall-clock ms while
   * at least one request waited.
   */
  start(run: { total: number; concurrency: number; waitedMs: () => number }): void;
  /** A case started (with --concurrency above 1, several are under way at once). */
  caseStarted(c: ProgressCase): void;
  /** A case ended with this verdict ("fail" and "error" count as failures so far). */
  caseFinished(c: ProgressCase, verdict: Verdict): void;
  /** Every case has ended, or the run was stopped: the watcher clears what it shows and writes nothing more. */
  end(): void;
}
