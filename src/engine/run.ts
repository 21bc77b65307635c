// A whole conformance run: plan the cases, reach the target (or start the bundled simulator), run every case as a
// mocha test, and hand back the report and the exit code. Output files are written by src/reporters.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { expiresInUnit, type Profile } from '../config/profile.js';
import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { TokenProvider } from '../http/auth.js';
import { planCases, type CaseFilters } from './plan.js';
import { Runner } from './runner.js';
import { sweepResidue, type SweepOutcome } from './sweep.js';
import { SuiteError, formatProblem, loadSuites, type CaseDef } from './suite.js';
import { TemplateError, type Factory, type GenerationContext } from './template.js';
import type { StartEmbeddedTarget } from '../core/embedded.js';
import { awaiting } from '../core/pending.js';
import type { RunProgress } from '../core/progress.js';
import type { CaseResult } from '../core/results.js';
import { IdSourceSet, idSourceKey, idSourceProblem, idSourcesOf } from './id-sources.js';
import { exitCodeOf, type FailOn } from '../core/verdict.js';
import type { BaselineOutcome, RunReport, StopReason } from '../core/report.js';
import { applyBaseline, readBaseline, type BaselineEntry } from './baseline.js';
import { runWithMocha } from './mocha-adapter.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './pool.js';
import { expiredToken, firstToken, httpClientFor, reachTarget, runSecrets } from './target.js';
import { assembleReport } from './run-report.js';
import { caseSeed } from './case-seed.js';

export { caseSeed } from './case-seed.js';

/**
 * A mocha reporter class, typed without mocha's own types so that the public declarations do not need them
 * (any mocha reporter class fits: it is constructed with the runner and the options).
 */
export type ReporterClass = new (runner: never, options?: never) => unknown;

export interface RunOptions {
  profile: Profile;
  /** "should": SHOULD warnings fail the run too (--fail-on should). */
  failOn?: FailOn;
  filters?: CaseFilters;
  /** A mocha reporter name ("spec", "dot", "json", …), a reporter class (the CLI's default console), or "none". */
  reporter?: string | ReporterClass;
  /** Keep the stack of a failure for the console (rdx run --debug); without it a failure is its message only. */
  debug?: boolean;
  bail?: boolean;
  suiteFiles?: string[];
  /** A baseline file of known failures. */
  baseline?: string;
  /** The container image the target was started from (rdx run --image), for the report. */
  image?: string;
  /**
   * Starts the target when the profile has no base URL: the composition roots pass the bundled simulator
   * (src/compose.ts `embeddedSimulator`). Without it, a profile without a base URL is a usage error.
   */
  simulator?: StartEmbeddedTarget;
  /**
   * Whole-run time limit in ms (rdx run --deadline): cases not finished by then are "not run (deadline)". Default
   * DEFAULT_DEADLINE_MS: a run always ends, with its reports, whatever the target does.
   */
  deadlineMs?: number;
  /** Aborted on SIGINT or SIGTERM: the cases left are "not run (interrupted)", and the report is still made. */
  interrupt?: AbortSignal;
  /** Told of each case as it starts and ends (rdx run's live progress line); nothing is told without it. */
  progress?: RunProgress;
  /**
   * How many cases may run side by side (rdx run --concurrency; the profile's `concurrency`; DEFAULT_CONCURRENCY when
   * neither names it); 1 runs them one after another in the plan's order. The rules: src/engine/pool.ts.
   */
  concurrency?: number;
}

// The report contract lives in src/core/report.ts; these names stay importable from here for the engine's callers.
export type { InterpretationProfile, RunReport, StopReason, Summary } from '../core/report.js';
export { exitCodeOf, summarise } from '../core/verdict.js';
export { leftOut, newRunId, stoppedBeforeRun } from './run-report.js';

export interface RunOutcome {
  report: RunReport;
  exitCode: number;
  /** The profile the run used: the caller's, with what an embedded target adds (its fixtures); the caller's is left as it was. */
  profile: Profile;
}

export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
  const concurrency = concurrencyOf(options);
  const halt = haltSwitch(options);
  const { all, cases, baseline } = planRun(options);
  // The caller's profile is never changed: what the embedded target adds goes into a profile of the run's own.
  const { profile, baseUrl, clientId, clientSecret, closeSimulator } = await reachTarget(options.profile, options.simulator);
  // Until the run's own try/finally below, a throw must still close the simulator this run started: a leaked
  // listening server keeps the caller's process (a CLI, a test runner) alive.
  const abandon = async (error: unknown): Promise<never> => {
    halt.dispose();
    if (closeSimulator) await closeSimulator();
    throw error;
  };
  const idSources = idSourcesOf(profile);
  for (const [resource, source] of Object.entries(idSources) as [keyof typeof idSources, unknown][]) {
    const problem = idSourceProblem(source, baseUrl, resource);
    if (problem) return abandon(new UsageError(`${idSourceKey(resource)}: ${problem}`, 'RDX_ERR_CONFIG'));
  }
  if (!clientId || !clientSecret) {
    return abandon(new UsageError('no credentials: give --client-id and --client-secret, RDX_CLIENT_ID and RDX_CLIENT_SECRET, or credentials in the config file', 'RDX_ERR_NO_CREDENTIALS'));
  }
  const tokenUrl = profile.tokenUrl ?? `${baseUrl.replace(/\/$/, '')}/oauth2/token`;
  const secrets = runSecrets(profile, clientId, clientSecret, baseUrl, tokenUrl);
  let http: HttpClient;
  try {
    http = httpClientFor(profile, baseUrl, tokenUrl, halt.signal);
  } catch (error) {
    return abandon(error);
  }
  const grantType = profile.declared['grantType'] === 'omit' ? null : String(profile.declared['grantType'] ?? 'client_credentials');
  const credentials = { clientId, clientSecret, grantType };
  const tokens = new TokenProvider(http, tokenUrl, credentials, secrets, expiresInUnit(profile));

  try {
    await awaiting('the first token', firstToken(tokens, halt.signal, secrets));
    const ids = new IdSourceSet(idSources, { baseUrl, tokens });
    const { gen, genFor } = await generationContext(profile, ids, startedAt, all);
    const runner = new Runner({
      profile, baseUrl, http, tokens, secrets, gen, genFor, credentials: { clientId, clientSecret }, ids,
      expiredToken: (throttled) => expiredToken(profile, tokens, secrets, throttled),
    });
    const baselineOutcome: BaselineOutcome = { unexpectedPasses: [], expired: [] };
    const judged = (r: CaseResult): void => {
      const o = applyBaseline([r], baseline);
      baselineOutcome.unexpectedPasses.push(...o.unexpectedPasses);
      baselineOutcome.expired.push(...o.expired);
    };
    const { progress } = options;
    progress?.start({ total: cases.length, concurrency, waitedMs: () => http.waitingMs() });
    try {
      await awaiting('the cases', runWithMocha(cases, options, { runner, judged, scrub: (text) => secrets.scrub(text), halt: halt.signal, concurrency, ...(progress ? { progress } : {}) }));
    } finally {
      progress?.end();
    }
    // Cases end in any order side by side: the baseline's lists read in the plan's order.
    const order = new Map(cases.map((c, i) => [c.id, i]));
    for (const list of [baselineOutcome.unexpectedPasses, baselineOutcome.expired]) list.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    // What the cases created and did not delete, deleted where the spec has a DELETE (a stopped run stops here too).
    let sweep: SweepOutcome | undefined;
    if (!halt.signal.aborted) {
      sweep = await awaiting('the end-of-run sweep', sweepResidue(runner.ledger, tokens, baseUrl, concurrency, (e) => runner.services.ledger.idOf(e)).catch(() => undefined));
      http.takeThrottled();
    }
    const report = assembleReport({
      all, planned: cases, results: runner.results, residue: runner.services.ledger.left(), profile,
      filters: options.filters ?? {}, failOn: options.failOn ?? 'must', startedAt, runTag: gen.runTag, concurrency, deadlineMs: halt.deadlineMs,
      target: { baseUrl, tokenUrl, embedded: !!closeSimulator, ...(options.image ? { image: options.image } : {}) },
      halt: halt.signal, stoppedAt: halt.stoppedAt(), http, secrets, ...(sweep ? { sweep } : {}),
      ...(options.baseline ? { baseline: { file: options.baseline, entries: baseline.length, ...baselineOutcome } } : {}),
    });
    return { report, exitCode: exitCodeOf(report.summary), profile };
  } finally {
    halt.dispose();
    await http.close();
    if (closeSimulator) await closeSimulator();
  }
}

/** The run's concurrency: the option, else the profile's, else the default; 1 to MAX_CONCURRENCY. */
function concurrencyOf(options: RunOptions): number {
  const n = options.concurrency ?? options.profile.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
    throw new UsageError(`concurrency ${String(n)}: give a whole number from 1 (one case at a time) to ${MAX_CONCURRENCY}`);
  }
  return n;
}

/**
 * The deadline of a run that names none: a complete run takes seconds to minutes (47 s at --concurrency 1 against a
 * target 50 ms away), so an hour only ever stops a run that a target holds without end.
 */
export const DEFAULT_DEADLINE_MS = 60 * 60_000;

/** One switch for both ways a run is stopped early (the deadline, an interrupt); its reason says which came first. */
function haltSwitch(options: RunOptions): { signal: AbortSignal; deadlineMs: number; stoppedAt: () => Date | undefined; dispose: () => void } {
  const halt = new AbortController();
  // Every request under way listens for the stop (src/http/client.ts), and an explore case sends two side by side:
  // Node's default of 10 listeners would warn on stderr at the default concurrency.
  setMaxListeners(MAX_CONCURRENCY * 4 + 16, halt.signal);
  let stoppedAt: Date | undefined;
  const stop = (reason: StopReason): void => {
    if (halt.signal.aborted) return;
    stoppedAt = new Date();
    halt.abort(reason);
  };
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  // A watchdog, not a wait: the run awaits its cases, never this timer, so it must not keep a process alive on its own
  // (a run that threw before its end, in a test runner or an API caller, would otherwise hold it for the hour).
  const deadline = setTimeout(() => stop('deadline'), deadlineMs).unref();
  const onInterrupt = (): void => stop('interrupted');
  if (options.interrupt?.aborted) onInterrupt();
  options.interrupt?.addEventListener('abort', onInterrupt);
  return {
    signal: halt.signal,
    deadlineMs,
    stoppedAt: () => stoppedAt,
    dispose: () => {
      clearTimeout(deadline);
      options.interrupt?.removeEventListener('abort', onInterrupt);
    },
  };
}

/** The suites' cases, the ones the filters select, and the baseline of known failures. */
function planRun(options: RunOptions): { all: CaseDef[]; cases: CaseDef[]; baseline: BaselineEntry[] } {
  let all: CaseDef[];
  try {
    all = loadSuites(options.suiteFiles);
  } catch (error) {
    if (error instanceof SuiteError) throw new UsageError(`bad suite file(s):\n${error.problems.map(formatProblem).join('\n')}`, 'RDX_ERR_SUITE');
    throw error;
  }
  const baseline: BaselineEntry[] = options.baseline ? readBaseline(options.baseline, new Set(all.map((c) => c.id))) : [];
  const plan = planCases(all, options.filters ?? {});
  if (plan.cases.length === 0) throw new UsageError('no case matches the filters', 'RDX_ERR_NO_CASES');
  return { all, cases: plan.cases, baseline };
}

/** Fakers kept for reuse (one per case under way is enough). */
const MAX_SPARE_FAKERS = 64;

/** Values one case may make before its range of unique numbers would run into the next case's. */
const CASE_STRIDE = 10_000;

/**
 * How the run makes its data: seeded fakes, the run's tag on every reference, and the ids the id source learns.
 * Each case makes its data with a faker of its own, seeded from the run's seed and the case's id, and numbers its
 * unique values in a range of its own (its place among all cases): a case sends the same data whatever runs beside
 * it and in whatever order, so --concurrency 1 and N send the same requests.
 */
async function generationContext(
  profile: Profile, ids: IdSourceSet, startedAt: Date, all: CaseDef[],
): Promise<{ gen: GenerationContext; genFor: (caseId: string) => GenerationContext }> {
  const { createFaker, factories } = await loadFactories();
  const runTag = `rdx${randomBytes(3).toString('hex')}`;
  let counter = 0;
  const anchor = new Date(Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate()));
  const gen: GenerationContext = {
    faker: createFaker(profile.seed), factories, runTag, next: () => ++counter, invalidItems: new WeakSet(), repaired: new WeakMap(), anchor,
    jobOfferId: (reference) => ids.get('job-offer', { reference }) ?? reference,
    dateFilterFormat: profile.declared['dateFilterFormat'] === 'date-time' ? 'date-time' : 'date',
  };
  const ordinals = new Map(all.map((c, i) => [c.id, i + 1]));
  // The fakers of cases that ended, reseeded for the next: a faker reseeded makes what a new one with that seed
  // makes (factories.test.ts), and making one costs four times as much as reseeding it.
  const spare: GenerationContext['faker'][] = [];
  const genFor = (caseId: string): GenerationContext => {
    const base = (ordinals.get(caseId) ?? 0) * CASE_STRIDE;
    let made = 0;
    let faker: GenerationContext['faker'] | undefined;
    let released = false;
    return {
      ...gen,
      // Made on first use: many cases make no data.
      get faker() {
        if (faker) return faker;
        const seed = caseSeed(profile.seed, caseId);
        const reused = released ? undefined : spare.pop();
        reused?.seed(seed);
        faker = reused ?? createFaker(seed);
        return faker;
      },
      release: () => {
        if (faker && !released && spare.length < MAX_SPARE_FAKERS) spare.push(faker);
        faker = undefined;
        released = true;
      },
      next: () => {
        if (++made >= CASE_STRIDE) throw new TemplateError(`case ${caseId} makes more than ${CASE_STRIDE - 1} unique values`);
        return base + made;
      },
    };
  };
  return { gen, genFor };
}

async function loadFactories(): Promise<{ createFaker: (seed: number) => GenerationContext['faker']; factories: Record<string, Factory> }> {
  const mod = (await import('../data/factories.js')) as unknown as Record<string, unknown>;
  const factories: Record<string, Factory> = {};
  for (const [name, value] of Object.entries(mod)) if (typeof value === 'function' && name !== 'createFaker') factories[name] = value as Factory;
  return { createFaker: mod['createFaker'] as (seed: number) => GenerationContext['faker'], factories };
}
