// A whole conformance run: plan the cases, reach the target (or start the bundled simulator), run every case as a
// mocha test, and hand back the report and the exit code. Output files are written by src/reporters.
import { randomBytes } from 'node:crypto';
import Mocha from 'mocha';
import { clauses, interpretations, specHash } from '../spec/index.js';
import { expiresInUnit, redactedProfile, type Profile } from '../config/profile.js';
import { UnreachableError, UsageError } from '../errors.js';
import { HttpClient } from '../http/client.js';
import { TokenError, TokenProvider, tokenRequestBody } from '../http/auth.js';
import { Secrets, stripUserinfo } from '../http/redact.js';
import { planCases, type CaseFilters } from './plan.js';
import { Runner } from './runner.js';
import { sweepResidue } from './sweep.js';
import { residueSummary } from '../core/residue.js';
import { SuiteError, formatProblem, loadSuites, type CaseDef } from './suite.js';
import type { Factory, GenerationContext } from './template.js';
import { verdictOf, type CaseResult } from '../core/results.js';
import type { StartEmbeddedTarget } from '../core/embedded.js';
import { harnessVersion } from '../version.js';
import { IdSourceSet, idSourceKey, idSourceProblem, idSourcesOf } from './id-sources.js';
import { exitCodeOf, summarise, type FailOn } from '../core/verdict.js';
import { REPORT_FORMAT, type InterpretationProfile, type NotRun, type RunReport, type StopReason } from '../core/report.js';
import { escapeTerminal } from '../reporters/terminal.js';
import { applyBaseline, readBaseline, type BaselineEntry } from './baseline.js';
import type { BaselineOutcome } from '../core/report.js';
import { endpointOf, latencyOf } from './latency.js';
import type { JudgedTest } from './judged-test.js';

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
   * (src/cli/compose.ts `embeddedSimulator`). Without it, a profile without a base URL is a usage error.
   */
  simulator?: StartEmbeddedTarget;
  /** Whole-run time limit in ms (rdx run --deadline): cases not finished by then are "not run (deadline)". */
  deadlineMs?: number;
  /** Aborted on SIGINT or SIGTERM: the cases left are "not run (interrupted)", and the report is still made. */
  interrupt?: AbortSignal;
}

// The report contract lives in src/core/report.ts; these names stay importable from here for the engine's callers.
export type { InterpretationProfile, RunReport, StopReason, Summary } from '../core/report.js';
export { exitCodeOf, summarise } from '../core/verdict.js';

export interface RunOutcome {
  report: RunReport;
  exitCode: number;
  /** The profile the run used: the caller's, with what an embedded target adds (its fixtures); the caller's is left as it was. */
  profile: Profile;
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}-${randomBytes(2).toString('hex')}`;
}

export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
  // One switch for both ways a run is stopped early; its reason says which came first.
  const halt = new AbortController();
  let stoppedAt: Date | undefined;
  const stop = (reason: StopReason): void => {
    if (halt.signal.aborted) return;
    stoppedAt = new Date();
    halt.abort(reason);
  };
  const deadline = options.deadlineMs === undefined ? undefined : setTimeout(() => stop('deadline'), options.deadlineMs);
  const onInterrupt = (): void => stop('interrupted');
  if (options.interrupt?.aborted) onInterrupt();
  options.interrupt?.addEventListener('abort', onInterrupt);
  let all: CaseDef[];
  try {
    all = loadSuites(options.suiteFiles);
  } catch (error) {
    if (error instanceof SuiteError) throw new UsageError(`bad suite file(s):\n${error.problems.map(formatProblem).join('\n')}`);
    throw error;
  }
  const baseline: BaselineEntry[] = options.baseline ? readBaseline(options.baseline, new Set(all.map((c) => c.id))) : [];
  const plan = planCases(all, options.filters ?? {});
  if (plan.cases.length === 0) throw new UsageError('no case matches the filters');

  // The caller's profile is never changed: what the embedded target adds goes into a profile of the run's own.
  let profile = options.profile;
  let target = profile.baseUrl;
  let closeSimulator: (() => Promise<void>) | undefined;
  let clientId = profile.clientId;
  let clientSecret = profile.clientSecret;
  if (!target) {
    // No target given: the bundled simulator, in-process on a free loopback port, with throwaway credentials.
    if (!options.simulator) throw new UsageError('no target: give --base-url, RDX_BASE_URL or baseUrl in the config file');
    clientId = 'rdx-embedded';
    clientSecret = randomBytes(18).toString('base64url');
    const sim = await options.simulator({ seed: profile.seed, clientId, clientSecret });
    target = sim.baseUrl;
    closeSimulator = () => sim.close();
    // The run against the bundled simulator is complete: the simulator mints a token that has already expired (so
    // the expiry case runs without waiting an hour), names a job offer it seeded, and is thrown away after the run,
    // so the irreversible tier runs too.
    const expired = profile.fixtures.expiredToken ? undefined : await Promise.resolve(sim.expiredToken()).catch(async (error: unknown) => {
      await sim.close();
      throw error;
    });
    profile = {
      ...profile,
      fixtures: {
        ...profile.fixtures,
        ...(expired ? { expiredToken: expired } : {}),
        ...(!profile.fixtures.atsJobOfferIds?.length && sim.atsJobOfferFixtureIds ? { atsJobOfferIds: sim.atsJobOfferFixtureIds() } : {}),
      },
      allowIrreversible: true,
    };
  }
  const baseUrl = target;
  // Until the run's own try/finally below, a throw must still close the simulator this run started: a leaked
  // listening server keeps the caller's process (a CLI, a test runner) alive.
  const abandon = async (error: unknown): Promise<never> => {
    if (closeSimulator) await closeSimulator();
    throw error;
  };
  const idSources = idSourcesOf(profile);
  for (const [resource, source] of Object.entries(idSources) as [keyof typeof idSources, unknown][]) {
    const problem = idSourceProblem(source, baseUrl, resource);
    if (problem) return abandon(new UsageError(`${idSourceKey(resource)}: ${problem}`));
  }
  if (!clientId || !clientSecret) {
    return abandon(new UsageError('no credentials: give --client-id and --client-secret, RDX_CLIENT_ID and RDX_CLIENT_SECRET, or credentials in the config file'));
  }
  const secrets = new Secrets();
  secrets.add(clientSecret);
  // Basic credentials carry the secret in base64: a case that sends them must not leak it either.
  secrets.add(Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64'));
  // The form-encoded token request carries the secret encoded: masked in that form too.
  secrets.add(new URLSearchParams({ s: clientSecret }).toString().slice(2));
  secrets.add(encodeURIComponent(clientSecret));
  const tokenUrl = profile.tokenUrl ?? `${baseUrl.replace(/\/$/, '')}/oauth2/token`;
  // The target's identity is never masked, even where a token happens to equal its host.
  for (const url of [baseUrl, tokenUrl]) secrets.protect(originOrNothing(url));
  // What the profile took from the environment for the id source or the fixtures (a command may carry a credential).
  for (const e of profile.envExpansions ?? []) if (e.key === 'atsJobOfferIdSource' || e.key === 'fixtures') e.values.forEach((v) => secrets.add(v));
  let http: HttpClient;
  try {
    http = new HttpClient({
      // Only where the user pointed the run: a link the target hands over cannot send the token anywhere else.
      origins: originsOf(baseUrl, tokenUrl),
      timeoutMs: profile.http.timeoutMs,
      maxResponseBytes: profile.http.maxResponseBytes,
      retries: profile.http.retries,
      ...(profile.http.rateLimit !== undefined ? { rateLimit: profile.http.rateLimit } : {}),
      throttle: { maxWaitMs: profile.http.maxWaitMs, maxTotalWaitMs: profile.http.maxTotalWaitMs },
      endpointOf: (method, url) => {
        const endpoint = endpointOf(method, url, baseUrl, tokenUrl);
        return endpoint === undefined ? undefined : String(endpoint);
      },
      halt: halt.signal,
      insecure: profile.http.insecure,
      ...(profile.http.ca ? { caFile: profile.http.ca } : {}),
      ...(profile.http.proxy ? { proxy: profile.http.proxy } : {}),
    });
  } catch (error) {
    return abandon(error);
  }
  const grantType = profile.declared['grantType'] === 'omit' ? null : String(profile.declared['grantType'] ?? 'client_credentials');
  const credentials = { clientId, clientSecret, grantType };
  const tokens = new TokenProvider(http, tokenUrl, credentials, secrets, expiresInUnit(profile));

  try {
    try {
      await tokens.token();
    } catch (error) {
      const ex = error instanceof TokenError ? error.exchange : undefined;
      // Stopped before the first case: that says nothing of the target, and every case is reported as not run.
      if (!halt.signal.aborted) throw new UnreachableError(ex?.transportError
        ? `cannot reach the target: ${secrets.scrub((error as Error).message)}`
        : `no token could be obtained: ${secrets.scrub((error as Error).message)}`);
    }
    const ids = new IdSourceSet(idSources, { baseUrl, http, token: () => tokens.token() });
    const { createFaker, factories } = await loadFactories();
    const runTag = `rdx${randomBytes(3).toString('hex')}`;
    let counter = 0;
    const anchor = new Date(Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate()));
    const gen: GenerationContext = {
      faker: createFaker(profile.seed), factories, runTag, next: () => ++counter, invalidItems: new WeakSet(), repaired: new WeakMap(), anchor,
      jobOfferId: (reference) => ids.get('job-offer', { reference }) ?? reference,
      dateFilterFormat: profile.declared['dateFilterFormat'] === 'date-time' ? 'date-time' : 'date',
    };
    const runner = new Runner({
      profile, baseUrl, http, tokens, secrets, gen, credentials: { clientId, clientSecret }, ids,
      expiredToken: () => expiredToken(profile, http, tokenUrl, credentials, secrets),
    });

    const baselineOutcome: BaselineOutcome = { unexpectedPasses: [], expired: [] };
    await runWithMocha(plan.cases, runner, options, (r) => {
      const o = applyBaseline([r], baseline);
      baselineOutcome.unexpectedPasses.push(...o.unexpectedPasses);
      baselineOutcome.expired.push(...o.expired);
    }, (text) => secrets.scrub(text), halt.signal);
    // What the cases created and did not delete, deleted where the spec has a DELETE (a stopped run stops here too).
    if (!halt.signal.aborted) {
      await sweepResidue(runner.ledger, http, baseUrl, () => tokens.token()).catch(() => 0);
      http.takeThrottled();
    }

    // A case still under way when the run gave up waiting for it (HALT_GRACE_MS) is reported as not run.
    const cases = plan.cases.map((c) => runner.results.get(c.id) ?? (halt.signal.aborted ? unrunCase(c, String(halt.signal.reason)) : undefined))
      .filter((r): r is CaseResult => !!r);
    const notRun = [
      ...leftOut(all, plan.cases, options.filters ?? {}),
      // --bail stops the run at the first failure: what it never reached was not judged.
      ...plan.cases.filter((c) => c.level === 'MUST' && !runner.results.has(c.id))
        .map((c) => ({ id: c.id, unlock: { unlock: 'without --bail', how: 'run without --bail: the run stopped at the first failing case' } })),
    ];
    const finishedAt = new Date();
    const report: RunReport = {
      format: REPORT_FORMAT,
      harness: { name: 'rdx-conformance', version: harnessVersion },
      spec: { hash: specHash(), clauses: clauses().length, interpretations: interpretations().length },
      run: {
        id: newRunId(startedAt),
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        seed: profile.seed,
        runTag,
        target: { baseUrl: stripUserinfo(baseUrl), embedded: !!closeSimulator, ...(options.image ? { image: options.image } : {}) },
        options: secrets.scrubValue({
          profile: redactedProfile(profile), filters: options.filters ?? {}, failOn: options.failOn ?? 'must',
        }) as Record<string, unknown>,
        ...(stoppedAt ? { stopped: { reason: halt.signal.reason as StopReason, at: stoppedAt.toISOString(), notRun: cases.filter(stoppedBeforeRun).length } } : {}),
      },
      summary: summarise(cases, { failOn: options.failOn ?? 'must', notRun }),
      cases,
      latency: latencyOf(cases, baseUrl, tokenUrl),
      implementationProfile: implementationProfile(cases, profile),
      residue: runner.ledger.filter((e) => !e.deleted),
      residueSummary: residueSummary(runner.ledger.filter((e) => !e.deleted)),
      transport: http.transportStats(),
      ...(options.baseline ? { baseline: { file: options.baseline, entries: baseline.length, ...baselineOutcome } } : {}),
    };
    return { report, exitCode: exitCodeOf(report.summary), profile };
  } finally {
    clearTimeout(deadline);
    options.interrupt?.removeEventListener('abort', onInterrupt);
    await http.close();
    if (closeSimulator) await closeSimulator();
  }
}

/** A case the run did not get to (or could not finish) because it was stopped: unjudged, never a pass. */
export const stoppedBeforeRun = (c: CaseResult): boolean => c.verdict === 'skip' && /^not run \((deadline|interrupted)\)/.test(c.reason ?? '');

/** scheme://host:port of a URL, or '' when it does not parse. */
function originOrNothing(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

function originsOf(...urls: string[]): string[] {
  return urls.map((url) => {
    try {
      return new URL(url).origin;
    } catch {
      throw new UsageError(`${url} is not a URL: give an absolute http(s) URL`);
    }
  });
}

async function loadFactories(): Promise<{ createFaker: (seed: number) => GenerationContext['faker']; factories: Record<string, Factory> }> {
  const mod = (await import('../data/factories.js')) as unknown as Record<string, unknown>;
  const factories: Record<string, Factory> = {};
  for (const [name, value] of Object.entries(mod)) if (typeof value === 'function' && name !== 'createFaker') factories[name] = value as Factory;
  return { createFaker: mod['createFaker'] as (seed: number) => GenerationContext['faker'], factories };
}

/** A token that has expired: from the profile, or a fresh one waited out when it lives 5 s or less. */
async function expiredToken(profile: Profile, http: HttpClient, tokenUrl: string,
  credentials: { clientId: string; clientSecret: string; grantType: string | null }, secrets: Secrets): Promise<string | { unavailable: string }> {
  if (profile.fixtures.expiredToken) {
    secrets.add(profile.fixtures.expiredToken);
    return profile.fixtures.expiredToken;
  }
  const ex = await http.send('expired token', {
    method: 'POST', url: tokenUrl, headers: { 'content-type': 'application/json' }, body: tokenRequestBody(credentials),
  });
  const body = ex.response?.json as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') return { unavailable: 'no token to let expire' };
  secrets.add(body.access_token);
  const unitMs = { seconds: 1000, milliseconds: 1, minutes: 60_000 }[expiresInUnit(profile)];
  const lifetime = body.expires_in * unitMs;
  if (lifetime > 5000) {
    return { unavailable: `tokens live ${body.expires_in} ${expiresInUnit(profile)}; too long to wait for one to expire (give fixtures.expiredToken in the profile)` };
  }
  await new Promise((r) => setTimeout(r, lifetime + 1000));
  return body.access_token;
}

/**
 * The MUST cases of the suites that the filters left out of this run: a filtered run certifies only its part. A
 * case outside this shard but inside the other filters is unlocked by its own shard (rdx report merges them).
 */
export function leftOut(all: CaseDef[], ran: CaseDef[], filters: CaseFilters): NotRun[] {
  const { shard, ...rest } = filters;
  if (!Object.values(rest).some((v) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)) && !shard) return [];
  const inRun = new Set(ran.map((c) => c.id));
  const unfiltered = new Set(planCases(all, {}).cases.map((c) => c.id));
  const wanted = shard ? planCases(all, rest).cases : [];
  const shardOf = new Map<string, number>();
  if (shard) {
    for (let i = 1; i <= shard.count; i++) {
      for (const c of planCases(all, { ...rest, shard: { index: i, count: shard.count } }).cases) if (!shardOf.has(c.id)) shardOf.set(c.id, i);
    }
  }
  const inWanted = new Set(wanted.map((c) => c.id));
  return all.filter((c) => c.level === 'MUST' && unfiltered.has(c.id) && !inRun.has(c.id)).map((c) => {
    const i = shardOf.get(c.id);
    if (shard && inWanted.has(c.id) && i !== undefined) {
      return { id: c.id, unlock: { unlock: `--shard ${i}/${shard.count}`, how: `run shard ${i}/${shard.count} too and merge the reports with rdx report` } };
    }
    return { id: c.id, unlock: { unlock: 'without filters', how: 'run without --tag, --level, --endpoint, --clause, --grep or --read-only: they left these cases out' } };
  });
}

function implementationProfile(cases: CaseResult[], profile: Profile): InterpretationProfile[] {
  const observations = cases.flatMap((c) => c.observations);
  return interpretations().map((i) => ({
    id: i.id,
    question: i.question,
    key: i.key,
    ...(i.key && profile.declared[i.key] !== undefined ? { declared: profile.declared[i.key] } : {}),
    observed: observations.filter((o) => o.interpretation === i.id).map(({ interpretation: _, ...rest }) => rest),
  }));
}

/** The result of a case the run did not get to. */
function unrunCase(c: CaseDef, reason: string): CaseResult {
  return {
    id: c.id, title: c.title, level: c.level, clauses: c.clauses, endpoints: c.endpoints, tags: c.tags, tier: c.tier,
    file: `${c.file}:${c.line}`, verdict: 'skip', reason: `not run (${reason})`, assertions: [], observations: [], exchanges: [], durationMs: 0,
  };
}

/** One mocha test per case, one mocha suite per file, so mocha's reporters and --bail work as mocha users expect. */
async function runWithMocha(cases: CaseDef[], runner: Runner, options: RunOptions, judged: (r: CaseResult) => void,
  scrub: (text: string) => string, halt: AbortSignal): Promise<void> {
  const reporter = options.reporter === 'none' ? class Silent { constructor() {} } : (options.reporter ?? 'spec');
  const mocha = new Mocha({ reporter: reporter as Mocha.ReporterConstructor | string, reporterOptions: { debug: !!options.debug }, bail: !!options.bail, timeout: 0 });
  // What mocha prints is target text (messages, reasons, values): escaped for the console, except for the JSON
  // reporters, whose JSON.stringify writes control characters as \u escapes anyway.
  const json = typeof reporter === 'string' && /json/i.test(reporter);
  const shown = json ? (t: string): string => t : (t: string): string => escapeTerminal(t);
  // A failure is a verdict, not a crash of the harness: its message says it all, and a stack of the harness's own
  // frames (at Context.<anonymous> …) only under --debug.
  const failure = (name: string, lines: string[], cause?: unknown): Error => {
    const error = new Error(lines.map((l) => shown(l)).join('\n'));
    error.name = name;
    // Under --debug: the frames of what broke (the harness's own error when there was one).
    const frames = ((cause instanceof Error ? cause.stack : undefined) ?? error.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
    error.stack = [`${name}: ${error.message}`, ...(options.debug ? frames : [])].join('\n');
    return error;
  };
  const suites = new Map<string, Mocha.Suite>();
  for (const c of cases) {
    let suite = suites.get(c.file);
    if (!suite) {
      suite = Mocha.Suite.create(mocha.suite, c.file.replace(/^suites\//, '').replace(/\.ya?ml$/, ''));
      suites.set(c.file, suite);
    }
    suite.addTest(new Mocha.Test(shown(`[${c.level}] ${c.id}: ${c.title}`), async function (this: Mocha.Context) {
      let r: CaseResult;
      let crash: unknown;
      try {
        r = halt.aborted ? unrunCase(c, String(halt.reason)) : await runner.runCase(c);
        // Stopped while it ran: what it judged before the stop stands (a failure stays a failure); a case with no
        // failure yet is unjudged, not passed, and its cut-off requests are no error of the target's.
        if (halt.aborted && (r.verdict === 'error' || r.verdict === 'skip') && /the run was stopped/.test(r.reason ?? '')) {
          r = r.assertions.some((a) => !a.passed)
            ? { ...r, verdict: verdictOf(c.level, r.assertions), reason: `stopped (${String(halt.reason)}) before it finished; judged on what it saw` }
            : { ...r, verdict: 'skip', reason: `not run (${String(halt.reason)}): stopped while it ran` };
        }
        runner.results.set(c.id, r);
      } catch (error) {
        crash = error;
        // A case the harness itself failed on is an error in the report: left out, the run could read conformant.
        r = {
          id: c.id, title: c.title, level: c.level, clauses: c.clauses, endpoints: c.endpoints, tags: c.tags, tier: c.tier,
          file: `${c.file}:${c.line}`, verdict: 'error', reason: scrub(`harness error: ${(error as Error).message}`),
          assertions: [], observations: [], exchanges: [], durationMs: 0,
        };
        runner.results.set(c.id, r);
      }
      judged(r);
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
    }));
  }
  // Stopped: a case has HALT_GRACE_MS to end (its requests are cut at once); one that does not, whatever holds it,
  // is left behind and reported as not run, so the stop is a hard one.
  let grace: NodeJS.Timeout | undefined;
  let giveUp = (): void => undefined;
  const finished = await new Promise<boolean>((resolve) => {
    giveUp = (): void => {
      grace = setTimeout(() => resolve(false), HALT_GRACE_MS);
    };
    mocha.run(() => resolve(true));
    if (halt.aborted) giveUp();
    else halt.addEventListener('abort', giveUp, { once: true });
  });
  clearTimeout(grace);
  halt.removeEventListener('abort', giveUp);
  if (finished) mocha.dispose();
}

/** How long a stopped run waits for the case under way to end. */
const HALT_GRACE_MS = 2_000;
