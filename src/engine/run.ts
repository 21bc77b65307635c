// A whole conformance run: plan the cases, reach the target (or start the bundled simulator), run every case as a
// mocha test, and hand back the report and the exit code. Output files are written by src/reporters.
import { randomBytes } from 'node:crypto';
import Mocha from 'mocha';
import { clauses, interpretations, specHash } from '../spec/index.js';
import { expiresInUnit, redactedProfile, type Profile } from '../config/profile.js';
import { EXIT, UnreachableError, UsageError } from '../errors.js';
import { HttpClient } from '../http/client.js';
import { TokenError, TokenProvider, tokenRequestBody } from '../http/auth.js';
import { Secrets } from '../http/redact.js';
import { planCases, type CaseFilters } from './plan.js';
import { Runner } from './runner.js';
import { SuiteError, formatProblem, loadSuites, type CaseDef } from './suite.js';
import type { Factory, GenerationContext } from './template.js';
import type { CaseResult, Observation, ResidueEntry } from '../core/results.js';
import type { StartEmbeddedTarget } from '../core/embedded.js';
import { harnessVersion } from '../version.js';
import { escapeTerminal } from '../reporters/terminal.js';
import { applyBaseline, readBaseline, type BaselineEntry, type BaselineOutcome } from './baseline.js';
import { latencyOf, type Latency } from './latency.js';

export interface RunOptions {
  profile: Profile;
  filters?: CaseFilters;
  /** A mocha reporter name ("spec", "dot", "json", …), a reporter class (the CLI's default console), or "none". */
  reporter?: string | Mocha.ReporterConstructor;
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
}

export interface InterpretationProfile {
  id: string;
  question: string;
  key: string | null;
  declared?: unknown;
  observed: Omit<Observation, 'interpretation'>[];
}

export interface RunReport {
  format: 'rdx-report/1';
  harness: { name: 'rdx-conformance'; version: string };
  spec: { hash: string; clauses: number; interpretations: number };
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    durationMs: number;
    seed: number;
    runTag: string;
    target: { baseUrl: string; embedded: boolean; image?: string };
    options: Record<string, unknown>;
  };
  summary: Summary;
  cases: CaseResult[];
  /** How fast the target answered, per endpoint, during this run (not a load test: see src/engine/latency.ts). */
  latency: Latency;
  implementationProfile: InterpretationProfile[];
  residue: ResidueEntry[];
  baseline?: { file: string; entries: number } & BaselineOutcome;
}

export interface Summary {
  total: number;
  byVerdict: Record<string, number>;
  byLevel: Record<string, Record<string, number>>;
  mustFailures: number;
  errors: number;
  conformant: boolean;
}

export interface RunOutcome {
  report: RunReport;
  exitCode: number;
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}-${randomBytes(2).toString('hex')}`;
}

export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
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

  const profile = options.profile;
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
    // The simulator can mint a token that has already expired, so the expiry case runs without waiting an hour.
    if (!profile.fixtures.expiredToken) profile.fixtures = { ...profile.fixtures, expiredToken: await sim.expiredToken() };
  }
  const baseUrl = target;
  if (!clientId || !clientSecret) {
    throw new UsageError('no credentials: give --client-id and --client-secret, RDX_CLIENT_ID and RDX_CLIENT_SECRET, or credentials in the config file');
  }
  const secrets = new Secrets();
  secrets.add(clientSecret);
  // Basic credentials carry the secret in base64: a case that sends them must not leak it either.
  secrets.add(Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64'));
  const tokenUrl = profile.tokenUrl ?? `${baseUrl.replace(/\/$/, '')}/oauth2/token`;
  const http = new HttpClient({
    // Only where the user pointed the run: a link the target hands over cannot send the token anywhere else.
    origins: originsOf(baseUrl, tokenUrl),
    timeoutMs: profile.http.timeoutMs,
    maxResponseBytes: profile.http.maxResponseBytes,
    retries: profile.http.retries,
    insecure: profile.http.insecure,
    ...(profile.http.ca ? { caFile: profile.http.ca } : {}),
    ...(profile.http.proxy ? { proxy: profile.http.proxy } : {}),
  });
  const grantType = profile.declared['grantType'] === 'omit' ? null : String(profile.declared['grantType'] ?? 'client_credentials');
  const credentials = { clientId, clientSecret, grantType };
  const tokens = new TokenProvider(http, tokenUrl, credentials, secrets, expiresInUnit(profile));

  try {
    try {
      await tokens.token();
    } catch (error) {
      const ex = error instanceof TokenError ? error.exchange : undefined;
      throw new UnreachableError(ex?.transportError
        ? `cannot reach the target: ${secrets.scrub((error as Error).message)}`
        : `no token could be obtained: ${secrets.scrub((error as Error).message)}`);
    }
    const { createFaker, factories } = await loadFactories();
    const runTag = `rdx${randomBytes(3).toString('hex')}`;
    let counter = 0;
    const anchor = new Date(Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate()));
    const gen: GenerationContext = {
      faker: createFaker(profile.seed), factories, runTag, next: () => ++counter, invalidItems: new WeakSet(), anchor,
      jobOfferId: (reference) => reference,
      dateFilterFormat: profile.declared['dateFilterFormat'] === 'date-time' ? 'date-time' : 'date',
    };
    const runner = new Runner({
      profile, baseUrl, http, tokens, secrets, gen, credentials: { clientId, clientSecret },
      expiredToken: () => expiredToken(profile, http, tokenUrl, credentials, secrets),
    });

    const baselineOutcome: BaselineOutcome = { unexpectedPasses: [], expired: [] };
    await runWithMocha(plan.cases, runner, options, (r) => {
      const o = applyBaseline([r], baseline);
      baselineOutcome.unexpectedPasses.push(...o.unexpectedPasses);
      baselineOutcome.expired.push(...o.expired);
    }, (text) => secrets.scrub(text));

    const cases = plan.cases.map((c) => runner.results.get(c.id)).filter((r): r is CaseResult => !!r);
    const finishedAt = new Date();
    const report: RunReport = {
      format: 'rdx-report/1',
      harness: { name: 'rdx-conformance', version: harnessVersion },
      spec: { hash: specHash(), clauses: clauses().length, interpretations: interpretations().length },
      run: {
        id: newRunId(startedAt),
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        seed: profile.seed,
        runTag,
        target: { baseUrl: secrets.scrub(baseUrl), embedded: !!closeSimulator, ...(options.image ? { image: options.image } : {}) },
        options: JSON.parse(secrets.scrub(JSON.stringify({ profile: redactedProfile(profile), filters: options.filters ?? {} }))) as Record<string, unknown>,
      },
      summary: summarise(cases),
      cases,
      latency: latencyOf(cases, baseUrl, tokenUrl),
      implementationProfile: implementationProfile(cases, profile),
      residue: runner.ledger.filter((e) => !e.deleted),
      ...(options.baseline ? { baseline: { file: options.baseline, entries: baseline.length, ...baselineOutcome } } : {}),
    };
    return { report, exitCode: exitCodeOf(report.summary) };
  } finally {
    await http.close();
    if (closeSimulator) await closeSimulator();
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

export function summarise(cases: CaseResult[]): Summary {
  const byVerdict: Record<string, number> = {};
  const byLevel: Record<string, Record<string, number>> = {};
  for (const c of cases) {
    const verdict = c.baseline ? 'known-failure' : c.verdict;
    byVerdict[verdict] = (byVerdict[verdict] ?? 0) + 1;
    byLevel[c.level] ??= {};
    (byLevel[c.level] as Record<string, number>)[verdict] = ((byLevel[c.level] as Record<string, number>)[verdict] ?? 0) + 1;
  }
  const mustFailures = cases.filter((c) => c.verdict === 'fail' && !c.baseline).length;
  const errors = cases.filter((c) => c.verdict === 'error' && !c.baseline).length;
  return { total: cases.length, byVerdict, byLevel, mustFailures, errors, conformant: mustFailures === 0 && errors === 0 };
}

export function exitCodeOf(summary: Summary): number {
  return summary.conformant ? EXIT.OK : EXIT.MUST_FAILED;
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

/** A mocha test of a case, carrying the case's result for reporters that show more than pass/fail (src/reporters/console.ts). */
export type JudgedTest = Mocha.Test & { rdx?: CaseResult };

/** One mocha test per case, one mocha suite per file, so mocha's reporters and --bail work as mocha users expect. */
async function runWithMocha(cases: CaseDef[], runner: Runner, options: RunOptions, judged: (r: CaseResult) => void,
  scrub: (text: string) => string): Promise<void> {
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
        r = await runner.runCase(c);
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
  await new Promise<void>((resolve) => {
    mocha.run(() => resolve());
  });
  mocha.dispose();
}
