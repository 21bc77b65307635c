// The mocha adapter: one mocha test per case, one mocha suite per file, so mocha's reporters and --bail work as mocha
// users expect. The verdict is the runner's; mocha only shows it.
import Mocha from 'mocha';
import { verdictOf, type CaseResult, type Verdict } from '../core/results.js';
import { isProblem } from '../core/case-view.js';
import type { RunProgress } from '../core/progress.js';
import { escapeJsonForTerminal, escapeTerminal } from '../core/terminal.js';
import type { CaseDef } from './suite.js';
import type { Runner } from './runner.js';
import { caseResult, unrunCase } from './case-run.js';
import type { JudgedTest } from './judged-test.js';
import { CasePool } from './pool.js';

/** How long a stopped run waits for the case under way to end. */
const HALT_GRACE_MS = 2_000;

export interface MochaOptions {
  /** A mocha reporter name, a reporter class, or "none". */
  reporter?: string | (new (runner: never, options?: never) => unknown);
  debug?: boolean;
  bail?: boolean;
}

/** What the adapter is handed by the run: where each result goes, how target text is masked, and the run's stop. */
export interface MochaRun {
  runner: Runner;
  judged: (r: CaseResult) => void;
  scrub: (text: string) => string;
  halt: AbortSignal;
  /** How many cases may run side by side (the pool's rules: src/engine/pool.ts). */
  concurrency: number;
  progress?: RunProgress;
}

/** A case's outcome as the pool hands it to its mocha test. */
interface Outcome {
  r: CaseResult;
  verdict: Verdict;
  crash?: unknown;
}

/**
 * Runs the cases as mocha tests, each into the runner's results; a stopped run ends within HALT_GRACE_MS. The cases
 * run in a pool, up to run.concurrency side by side and started ahead of mocha, which shows each in the plan's order
 * as it awaits its outcome; so mocha's reporters and --bail work as they do one case at a time.
 */
export async function runWithMocha(cases: CaseDef[], options: MochaOptions, run: MochaRun): Promise<void> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const { halt } = run;
  // What a case the pool will not start gets: a bailed run, or a stopped one whose case under way outlived the grace
  // (mocha still awaits the cases after it).
  const notStarted = (scheduled: { id: string }): Outcome => {
    const r = unrunCase(byId.get(scheduled.id) as CaseDef, halt.aborted ? String(halt.reason) : 'bail');
    return { r, verdict: r.verdict };
  };
  const pool: CasePool<Outcome> = new CasePool<Outcome>(cases, run.concurrency, async (scheduled) => {
    const out = await judgedCase(byId.get(scheduled.id) as CaseDef, run);
    run.judged(out.r);
    // --bail: the first failure starts no other case (the pool would start the next before mocha bails).
    if (options.bail && isProblem(out.r)) pool.stop(notStarted);
    return { ...out, verdict: out.r.verdict };
  }, run.progress);
  const reporter = options.reporter === 'none' ? class Silent { constructor() {} } : (options.reporter ?? 'spec');
  const mocha = new Mocha({
    reporter: reporter as Mocha.ReporterConstructor | string, reporterOptions: { debug: !!options.debug }, bail: !!options.bail, timeout: 0,
  });
  // What mocha prints is target text (messages, reasons, values): escaped for the console, except for the JSON
  // reporters, whose JSON.stringify writes control characters as \u escapes anyway.
  const json = typeof reporter === 'string' && /json/i.test(reporter);
  const shown = json ? (t: string): string => t : (t: string): string => escapeTerminal(t);
  const suites = new Map<string, Mocha.Suite>();
  for (const c of cases) {
    let suite = suites.get(c.file);
    if (!suite) {
      suite = Mocha.Suite.create(mocha.suite, c.file.replace(/^suites\//, '').replace(/\.ya?ml$/, ''));
      suites.set(c.file, suite);
    }
    suite.addTest(new Mocha.Test(shown(`[${c.level}] ${c.id}: ${c.title}`), caseTest(c, pool, shown, !!options.debug)));
  }
  // Stopped: a case has HALT_GRACE_MS to end (its requests are cut at once); one that does not, whatever holds it,
  // is left behind and reported as not run, so the stop is a hard one.
  // A JSON reporter on a terminal: what JSON.stringify leaves raw (C1 controls, bidi overrides) is written as \u
  // escapes, so the terminal acts on none of it and the JSON still parses to the same value.
  const write = process.stdout.write;
  if (json && process.stdout.isTTY) {
    process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
      (write as (...args: unknown[]) => boolean).call(process.stdout, typeof chunk === 'string' ? escapeJsonForTerminal(chunk) : chunk, ...rest)) as typeof process.stdout.write;
  }
  const finished = await untilGrace(new Promise<void>((resolve) => {
    pool.start();
    mocha.run(() => resolve());
  }), halt);
  // Those started ahead of mocha end (and clean up) before the run goes on.
  pool.stop(notStarted);
  if (finished) await untilGrace(pool.idle(), halt);
  process.stdout.write = write;
  if (finished) mocha.dispose();
}

/** Whether the work ended, or false once the run was stopped and HALT_GRACE_MS passed without its end. */
function untilGrace(work: Promise<unknown>, halt: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    let grace: NodeJS.Timeout | undefined;
    const giveUp = (): void => {
      grace = setTimeout(() => resolve(false), HALT_GRACE_MS);
    };
    const ended = (): void => {
      clearTimeout(grace);
      halt.removeEventListener('abort', giveUp);
      resolve(true);
    };
    work.then(ended, ended);
    if (halt.aborted) giveUp();
    else halt.addEventListener('abort', giveUp, { once: true });
  });
}

/** The mocha test of one case: runs it, records its result, and passes, skips or throws as its verdict says. */
function caseTest(c: CaseDef, pool: CasePool<Outcome>, shown: (t: string) => string, debug: boolean): (this: Mocha.Context) => Promise<void> {
  // A failure is a verdict, not a crash of the harness: its message says it all, and a stack of the harness's own
  // frames (at Context.<anonymous> …) only under --debug.
  const failure = (name: string, lines: string[], cause?: unknown): Error => {
    const error = new Error(lines.map((l) => shown(l)).join('\n'));
    error.name = name;
    // Under --debug: the frames of what broke (the harness's own error when there was one).
    const frames = ((cause instanceof Error ? cause.stack : undefined) ?? error.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
    error.stack = [`${name}: ${error.message}`, ...(debug ? frames : [])].join('\n');
    return error;
  };
  return async function (this: Mocha.Context) {
    const { r, crash } = await pool.outcome(c.id);
    const test = this.test as JudgedTest | undefined;
    if (test) test.rdx = r;
    if (r.baseline) {
      if (test) test.title += shown(` (known failure: ${r.baseline.reason})`);
      return;
    }
    if (r.verdict === 'skip') {
      if (test) test.title += shown(` (skipped: ${r.reason})`);
      this.skip();
    }
    if (r.verdict === 'observed' && test) {
      const seen = r.observations.map((o) => `${o.interpretation}${o.key ? `.${o.key}` : ''}=${JSON.stringify(o.value)}`).join(', ');
      if (seen) test.title += ` → ${shown(seen)}`;
    }
    if (r.verdict === 'error') throw failure('Error', [`harness could not judge: ${r.reason}`], crash);
    if (r.verdict === 'fail' || r.verdict === 'warn') {
      const failed = r.assertions.filter((a) => !a.passed);
      throw failure(r.verdict === 'fail' ? 'MUST failure' : 'SHOULD failure', failed.map((a) => `${a.level} ${a.clause}: ${a.message.replace(/\s+/g, ' ')}`));
    }
  };
}

/** Runs a case (unless the run was stopped) and records its result; a crash of the harness is an error, never left out. */
async function judgedCase(c: CaseDef, run: MochaRun): Promise<{ r: CaseResult; crash?: unknown }> {
  const { runner, halt } = run;
  try {
    let r = halt.aborted ? unrunCase(c, String(halt.reason)) : await runner.runCase(c);
    // Stopped while it ran: what it judged before the stop stands (a failure stays a failure); a case with no
    // failure yet is unjudged, not passed, and its cut-off requests are no error of the target's.
    if (halt.aborted && (r.verdict === 'error' || r.verdict === 'skip') && /the run was stopped/.test(r.reason ?? '')) {
      r = r.assertions.some((a) => !a.passed)
        ? { ...r, verdict: verdictOf(c.level, r.assertions), reason: `stopped (${String(halt.reason)}) before it finished; judged on what it saw` }
        : { ...r, verdict: 'skip', reason: `not run (${String(halt.reason)}): stopped while it ran` };
    }
    runner.results.set(c.id, r);
    return { r };
  } catch (error) {
    // A case the harness itself failed on is an error in the report: left out, the run could read conformant.
    const r = caseResult(c, 'error', run.scrub(`harness error: ${(error as Error).message}`));
    runner.results.set(c.id, r);
    return { r, crash: error };
  }
}
