// rdx run: the conformance suite against a base URL, or against the bundled simulator when none is given.
import type { Argv } from 'yargs';
import { residueLine, residueSummary } from '../../core/residue.js';
import { loadProfile, numberFlag, type Profile, type ProfileFlags } from '../../config/profile.js';
import { runConformance } from '../../engine/run.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../engine/pool.js';
import { exitCodeOf } from '../../core/verdict.js';
import { nextStepLine, verdictSummary, type NextStepFacts } from '../../reporters/verdict.js';
import { embeddedSimulator } from '../../compose.js';
import { UsageError } from '../../errors.js';
import { writeReports } from '../../reporters/files.js';
import { readBaseline, writeBaseline } from '../../engine/baseline.js';
import { loadSuites } from '../../engine/suite.js';
import { operations } from '../../spec/index.js';
import { filterOptions, filtersFrom } from './filters.js';
import { containerOptions, containerTargetFrom } from './container-flags.js';
import { ConsoleReporter } from '../../reporters/console.js';
import { signKeyFrom } from './signing.js';
import { transportSummary } from '../../reporters/transport.js';
import { withProgressLine } from '../../reporters/progress.js';

/** Reporters whose stdout is a document (JSON, XML, TAP): the summary lines go to stderr so it stays parseable. */
const DOCUMENT_REPORTERS = new Set(['json', 'json-stream', 'xunit', 'tap', 'markdown', 'doc', 'html']);

export function builder(y: Argv): Argv {
  return containerOptions(filterOptions(y))
    .usage('rdx run [options]\n\nRuns the conformance suites. Without --base-url it starts the bundled simulator on a free loopback port and runs against it.')
    .option('base-url', { type: 'string', describe: 'Base URL of the implementation (may carry a path prefix); env RDX_BASE_URL' })
    .option('token-url', { type: 'string', describe: 'Token endpoint (default <base-url>/oauth2/token)' })
    .option('client-id', { type: 'string', describe: 'Client id; env RDX_CLIENT_ID' })
    .option('client-secret', { type: 'string', describe: 'Client secret; prefer env RDX_CLIENT_SECRET (flags show in process lists)' })
    .option('config', { alias: 'c', type: 'string', describe: 'Target profile (default ./rdx.config.yaml or .json if present)' })
    .option('timeout', { type: 'number', describe: 'Per-request time limit in milliseconds, connect to last byte: at least 100 (default 10000)' })
    .option('retries', { type: 'number', describe: 'Extra attempts after a transport error (reset, timeout), for GET, HEAD, PUT and DELETE only: a POST or PATCH whose connection broke is reported as no answer, never sent twice: 0 to 5 (default 0)' })
    .option('rate', { type: 'number', describe: 'Requests per second the whole run holds itself to (profile http.rateLimit); none by default. A 429, or a 503 with Retry-After, is waited out and the request sent again either way, and the run slows down after it' })
    .option('insecure', { type: 'boolean', describe: 'Do not verify TLS certificates' })
    .option('ca', { type: 'string', describe: 'PEM file of extra certificate authorities' })
    .option('proxy', { type: 'string', describe: 'HTTP(S) proxy URL' })
    .option('seed', { type: 'number', describe: 'Seed of generated data (default 1)' })
    .option('allow-irreversible', { type: 'boolean', describe: 'Also run irreversible cases (PUT /users replaces every user)' })
    .option('concurrency', { type: 'number', requiresArg: true, describe: `How many cases may run side by side (profile concurrency): 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY}); 1 runs them one after another in the suites' order. Cases that share state on the target never run side by side (suites/README.md)` })
    .option('reporter', { alias: 'R', type: 'string', default: 'rdx', describe: 'Console output: rdx (one line per suite file and per failure), a mocha reporter (spec, dot, list, json, tap, …), or none' })
    .option('progress', { type: 'boolean', describe: 'A live line on stderr while the run goes: cases done, failures, suites in flight, time elapsed and left, time waited on the rate limit. On by default when stderr is a terminal and env CI is not set; --no-progress turns it off' })
    .option('debug', { type: 'boolean', describe: 'Show the stack of each failure and harness error on the console' })
    .option('explore-budget', { type: 'string', requiresArg: true, describe: 'What each explore case may spend: REQUESTS or REQUESTS/SECONDS (profile explore; default 400/20; seconds, when left out, one per 20 requests and at least 20). Nightly runs give more, e.g. 20000/1800 (docs/explore.md)' })
    .option('bail', { alias: 'b', type: 'boolean', describe: 'Stop after the first failing case (mocha --bail); with --concurrency above 1 the cases already under way end and are reported too' })
    .option('allow-incomplete', { type: 'boolean', describe: 'Exit 0 when MUST cases went unjudged (verdict INCOMPLETE, still so in the report), instead of 4' })
    .option('fail-on', { choices: ['must', 'should'], default: 'must', describe: 'What fails the run (exit 1): MUST failures (default), or also SHOULD warnings (recorded as summary.failOn)' })
    .option('baseline', { type: 'string', describe: 'Known failures (YAML): reported, and the verdict is KNOWN_FAILURES (exit 0), never CONFORMANT; a stale entry or a TODO reason is an error' })
    .option('update-baseline', { type: 'string', describe: 'Write the failures of this run to this baseline file (reasons kept)' })
    .option('report-dir', { type: 'string', default: 'reports', describe: 'Where reports/<run-id>/ and reports/latest go' })
    .option('reports', { type: 'boolean', default: true, describe: 'Write report files (--no-reports writes none)' })
    .option('deadline', { type: 'string', requiresArg: true, describe: 'Whole-run time limit, such as 90s, 15m or 1h (a bare number is seconds; default 1h): cases not run by then are reported as "not run (deadline)" and the reports are still written' })
    .option('bundle', { type: 'boolean', describe: 'Also write bundle.tar.gz beside the reports: a certification bundle rdx verify can check offline' })
    .option('sign-key', { type: 'string', describe: 'Sign the bundle\'s manifest with this Ed25519 private key (PEM, from rdx keygen); env RDX_SIGN_KEY (the PEM text or a file). Readers check it with rdx verify --public-key' })
    .example('rdx run', 'Run everything against the bundled simulator')
    .example('RDX_CLIENT_SECRET=… rdx run --base-url https://staging.example/api --client-id acme --level MUST', 'Gate a staging deployment on MUST cases');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  if (argv['bundle'] && argv['reports'] === false) throw new UsageError('--bundle needs the reports: drop --no-reports');
  if (argv['signKey'] !== undefined && !argv['bundle']) throw new UsageError('--sign-key signs the certification bundle: add --bundle');
  // Read before the run, so a bad key fails in a second, not after the suite; RDX_SIGN_KEY applies to bundles only.
  const signWith = argv['bundle'] ? signKeyFrom(argv) : undefined;
  const profile = loadProfile(profileFlags(argv));
  const container = containerTargetFrom(argv);
  const deadlineMs = argv['deadline'] === undefined ? undefined : duration(argv['deadline'], '--deadline');
  // The first SIGINT or SIGTERM stops the run and the partial reports are written; a second one quits at once.
  const interrupt = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) process.exit(SIGNAL_EXIT[signal] ?? 130);
    signalled = signal;
    process.stderr.write(`\n${signal}: stopping the run; the cases left are reported as not run (${signal} again quits at once)\n`);
    interrupt.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const reporterName = String(argv['reporter'] ?? 'rdx');
  // The summary follows the reporter's output on the same stream; stderr is for errors.
  const say = (line: string): void => {
    (DOCUMENT_REPORTERS.has(reporterName) ? process.stderr : process.stdout).write(`${line}\n`);
  };
  // The live line goes to stderr, never to stdout (where a document reporter's JSON or XML goes), and is ended
  // however the run ends.
  const conform = (profile: Profile) => withProgressLine(argv['progress'], runConformance, {
    ...(deadlineMs !== undefined ? { deadlineMs } : {}),
    interrupt: interrupt.signal,
    profile,
    filters: filtersFrom(argv, (name) => operations().find((o) => o.operationId === name)?.endpoint),
    reporter: reporterName === 'rdx' ? ConsoleReporter : reporterName,
    debug: argv['debug'] === true,
    bail: Boolean(argv['bail']),
    failOn: argv['failOn'] === 'should' ? 'should' : 'must',
    ...(typeof argv['baseline'] === 'string' ? { baseline: argv['baseline'] } : {}),
    ...(container ? { image: container.image } : {}),
    simulator: embeddedSimulator(),
  });
  // testcontainers (heavy; only --image needs it) is loaded only with --image; withContainer removes the container
  // however the run ends.
  let outcome: Awaited<ReturnType<typeof conform>>;
  try {
    outcome = container
      ? await (await (await import('../../container/load.js')).loadContainer()).withContainer(container, profile, conform)
      : await conform(profile);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const { report } = outcome;
  if (typeof argv['updateBaseline'] === 'string') {
    const previous = typeof argv['baseline'] === 'string' ? readBaseline(argv['baseline'], new Set(loadSuites().map((c) => c.id))) : [];
    const n = writeBaseline(argv['updateBaseline'], report.cases, previous);
    say(`Baseline: ${n} known failure(s) written to ${argv['updateBaseline']}`);
  }
  if (report.baseline) {
    const b = report.baseline;
    if (b.unexpectedPasses.length) say(`Baseline: ${b.unexpectedPasses.length} known failure(s) now pass, remove them: ${b.unexpectedPasses.join(', ')}`);
    if (b.expired.length) say(`Baseline: ${b.expired.length} entr(ies) expired and count again: ${b.expired.join(', ')}`);
  }
  say(`\n${verdictSummary(report.summary)}`);
  if (report.run.concurrency !== undefined) say(`Concurrency: up to ${report.run.concurrency} case(s) side by side (--concurrency)`);
  if (report.run.stopped) {
    say(`Stopped (${report.run.stopped.reason}) at ${report.run.stopped.at}: ${report.run.stopped.notRun} case(s) not run, so the run cannot be judged conformant`);
  }
  const throttling = transportSummary(report.transport);
  if (throttling) say(throttling);
  // A report from an older harness has no summary of its residue: derived from the ledger the same way.
  if (report.residue.length) say(residueLine(report.residueSummary ?? residueSummary(report.residue)));
  const next: NextStepFacts = {};
  if (argv['reports'] !== false) {
    const written = writeReports(report, String(argv['reportDir'] ?? 'reports'), { bundle: argv['bundle'] === true, ...(signWith ? { signWith } : {}) });
    say(`Reports: ${written.files.join(', ')}`);
    if (written.bundle) say(`Bundle manifest.json sha256 ${written.bundle.manifestSha256} (publish it to pin the bundle; rdx verify prints it)`);
    if (written.bundle && signWith) say(`Bundle signed by ${signWith.signer.fingerprint} (readers check it with rdx verify --public-key and your published public key)`);
    const html = written.files.find((f) => f.endsWith('report.html'));
    if (html) next.html = html;
    if (written.bundle) next.bundle = signWith ? 'signed' : 'unsigned';
  }
  say(nextStepLine(report.summary, report.cases, next));
  // A case left behind at the stop (see runConformance) may still hold a socket or a timer: it must not keep the
  // process alive once the reports are written.
  if (report.run.stopped) setTimeout(() => process.exit(), 1_000).unref();
  // Interrupted: the reports are written, and the exit code says how the run ended (128 + the signal's number).
  return signalled ? SIGNAL_EXIT[signalled] ?? 130 : exitCodeOf(report.summary, argv['allowIncomplete'] === true);
}

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/** A duration flag: 1500ms, 90s, 15m, 1h, or a bare number of seconds; in ms. */
export function duration(value: unknown, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(String(value));
  const ms = m ? Number(m[1]) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'] : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`${flag} must be a duration such as 90s, 15m or 1h (got ${JSON.stringify(String(value))})`);
  return Math.round(ms);
}

/** The profile keys the flags set (flags > env > file > defaults: loadProfile). */
function profileFlags(argv: Record<string, unknown>): ProfileFlags {
  return {
    ...(argv['config'] !== undefined ? { config: String(argv['config']) } : {}),
    ...(argv['baseUrl'] !== undefined ? { baseUrl: String(argv['baseUrl']) } : {}),
    ...(argv['tokenUrl'] !== undefined ? { tokenUrl: String(argv['tokenUrl']) } : {}),
    ...(argv['clientId'] !== undefined ? { clientId: String(argv['clientId']) } : {}),
    ...(argv['clientSecret'] !== undefined ? { clientSecret: String(argv['clientSecret']) } : {}),
    ...(argv['timeout'] !== undefined ? { timeout: numberFlag('--timeout', argv['timeout'], ['http', 'timeoutMs'], 'milliseconds (10000 is 10 s)') } : {}),
    ...(argv['retries'] !== undefined ? { retries: numberFlag('--retries', argv['retries'], ['http', 'retries'], 'extra attempts on transport errors') } : {}),
    ...(argv['rate'] !== undefined ? { rate: numberFlag('--rate', argv['rate'], ['http', 'rateLimit'], 'requests per second') } : {}),
    ...(argv['insecure'] !== undefined ? { insecure: Boolean(argv['insecure']) } : {}),
    ...(argv['ca'] !== undefined ? { ca: String(argv['ca']) } : {}),
    ...(argv['proxy'] !== undefined ? { proxy: String(argv['proxy']) } : {}),
    ...(argv['seed'] !== undefined ? { seed: numberFlag('--seed', argv['seed'], ['seed'], 'the seed of the generated data') } : {}),
    ...(argv['allowIrreversible'] !== undefined ? { allowIrreversible: Boolean(argv['allowIrreversible']) } : {}),
    ...(argv['concurrency'] !== undefined ? { concurrency: numberFlag('--concurrency', argv['concurrency'], ['concurrency'], 'how many cases may run side by side') } : {}),
    ...(argv['exploreBudget'] !== undefined ? { exploreBudget: exploreBudget(String(argv['exploreBudget'])) } : {}),
  };
}

/** --explore-budget REQUESTS[/SECONDS]. */
function exploreBudget(text: string): { requests: number; seconds?: number } {
  const m = /^(\d{1,7})(?:\/(\d{1,5})s?)?$/.exec(text.trim());
  if (!m) throw new UsageError(`--explore-budget ${JSON.stringify(text)}: give REQUESTS or REQUESTS/SECONDS, e.g. 400 or 20000/1800`);
  return { requests: Number(m[1]), ...(m[2] !== undefined ? { seconds: Math.max(1, Number(m[2])) } : {}) };
}
