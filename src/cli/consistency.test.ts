// One verdict, every output: a matrix of real runs (the CLI against the embedded simulator, or against a simulator
// with a fault persona), and for each one every output that states a verdict: the exit code, the console's last
// lines, report.json, junit.xml, report.html (its markup, and its text as Chromium shows it), the bundle's manifest
// and `rdx verify`, `rdx badge`, `rdx diff` against the clean run, the dashboard's run card and
// examples/job-summary.mjs. Each must say the verdict and the counts report.json's summary says, and each scenario's
// verdict is the one its setup calls for. An output that computes a verdict of its own disagrees in one of them. Each
// also shows a case as src/core/case-view.ts does: its verdict (known-failure when excused), the order of verdicts
// (worst first, and which one a merge keeps), the cases a failure list holds, and the look of the run's verdict.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { RunReport, RunVerdict, Summary } from '../core/report.js';
import { exitCodeOf, VERDICT_WORDS, verdictLine, verdictWhy } from '../core/verdict.js';
import { CASE_VERDICTS, RUN_VERDICT_CLASS, countsInOrder, isProblem, shownVerdict, verdictRank, worstFirst } from '../core/case-view.js';
import { reportProblem } from '../core/report.js';
import { failureGroups } from '../core/failures.js';
import { sha256Hex } from '../reporters/bundle.js';
import { tarUnpack } from '../reporters/tar.js';
import type { ReportDiff } from '../reporters/diff.js';
import { packageRoot } from '../spec/index.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { personaByName } from '../../simulator/personas/index.js';
import { runCard } from '../../simulator/dashboard/runs.js';
import { runProgram } from '../../test/support/package.js';
import { allLimited } from '../core/limit.js';
import { launchChromium, skipWithoutChromium } from '../../test/support/chromium.js';
import { SELFCHECK_EXPLORE_BUDGET } from '../selfcheck/index.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');
const LIMIT_MS = 240_000;
const CLIENT = { id: 'rdx-matrix', secret: 'matrix-secret-1' };

interface Run { code: number | null; stdout: string; stderr: string }
const rdx = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  runProgram(process.execPath, [cli, ...args], { cwd: packageRoot, env, limitMs: LIMIT_MS });

interface Scenario {
  name: string;
  /** The verdict its setup calls for. */
  verdict: RunVerdict;
  code: number;
  /** Where its report.json, junit.xml, report.html and bundle.tar.gz are. */
  dir: string;
  /** The console of the command that wrote the reports (rdx run's stdout, rdx report's stderr). */
  console: string;
  report: RunReport;
  /** What else the scenario is about, checked on its own summary. */
  also?: (s: Summary) => void;
}

/**
 * The clean run explores at the default budget; the other scenarios are about verdicts, not about what exploration
 * finds, so their explore cases run (and are judged, so no verdict changes) at the self-check's small one.
 */
const SMALL_EXPLORE = ['--explore-budget', String(SELFCHECK_EXPLORE_BUDGET.requests)];
/** Runs and programs side by side: each is mostly one process's CPU, and the machine has two cores. */
const SIDE_BY_SIDE = 3;

describe('one verdict, every output (the consistency matrix)', function () {
  this.timeout(900_000);
  const root = mkdtempSync(join(tmpdir(), 'rdx-matrix-'));
  const scenarios: Scenario[] = [];
  const simulators: Simulator[] = [];
  let clean: Scenario;

  /** A simulator of its own for one run, with these personas; the profile names its fixtures (or none). */
  async function target(personas: string[], fixtures: boolean): Promise<{ args: string[]; env: Record<string, string> }> {
    const sim = await startSimulator({
      host: '127.0.0.1', port: 0, seed: 1, clientId: CLIENT.id, clientSecret: CLIENT.secret,
      personas: personas.map((p) => personaByName(p) ?? (() => { throw new Error(`no persona ${p}`); })()),
    });
    simulators.push(sim);
    const config = join(root, `profile-${simulators.length}.json`);
    writeFileSync(config, JSON.stringify(fixtures ? { fixtures: { expiredToken: sim.expiredToken(), atsJobOfferIds: sim.atsJobOfferFixtureIds() } } : {}));
    return { args: ['--base-url', sim.baseUrl, '--client-id', CLIENT.id, '--config', config, '--allow-irreversible'], env: { RDX_CLIENT_SECRET: CLIENT.secret } };
  }

  /** Runs `rdx run` with its own report directory and a bundle; the scenario reads what it wrote. */
  async function run(name: string, verdict: RunVerdict, code: number, args: string[], env: Record<string, string> = {}, also?: Scenario['also']): Promise<Scenario> {
    const reports = join(root, name);
    const r = await rdx(['run', '--report-dir', reports, '--bundle', ...(name === 'clean' ? [] : SMALL_EXPLORE), ...args], env);
    return scenario({ name, verdict, code, dir: join(reports, 'latest'), console: r.stdout, run: r, ...(also ? { also } : {}) });
  }

  function scenario(s: Omit<Scenario, 'report'> & { run: Run }): Scenario {
    expect(s.run.code, `${s.name}: ${s.run.stderr}`).to.equal(s.code);
    const { run: _, ...rest } = s;
    return { ...rest, report: JSON.parse(readFileSync(join(s.dir, 'report.json'), 'utf8')) as RunReport };
  }

  /** A MUST failure (a fault persona), its failures written to a baseline on the way; then the same fault with the baseline: excused, never CONFORMANT. */
  async function mustFailureThenBaseline(): Promise<Scenario[]> {
    const baselineFile = join(root, 'baseline.yaml');
    const fault = await target(['status-filter-ignored'], true);
    const failing = await run('must-failure', 'NOT_CONFORMANT', 1, [...fault.args, '--update-baseline', baselineFile], fault.env, (s) => expect(s.mustFailures).to.be.greaterThan(0));
    // --update-baseline writes a TODO reason, which excuses nothing: a reviewer gives each entry its reason.
    const written = parseYaml(readFileSync(baselineFile, 'utf8')) as { knownFailures: { id: string; reason: string }[] };
    expect(written.knownFailures.length).to.be.greaterThan(0);
    for (const e of written.knownFailures) e.reason = 'ticket RDX-1: the status filter is ignored';
    writeFileSync(baselineFile, stringifyYaml(written));
    const excused = await target(['status-filter-ignored'], true);
    return [failing, await run('baseline', 'KNOWN_FAILURES', 0, [...excused.args, '--baseline', baselineFile], excused.env,
      (s) => expect(s.knownFailures).to.be.greaterThan(0))];
  }

  /** Shards of one run, merged whole and with one missing (rdx report prints the verdict on stderr). */
  async function shards(): Promise<Scenario[]> {
    for (const i of [1, 2, 3]) expect((await rdx(['run', '-R', 'none', ...SMALL_EXPLORE, '--shard', `${i}/3`, '--report-dir', join(root, `shard-${i}`), '--allow-incomplete'])).code).to.equal(0);
    const shard = (i: number): string => join(root, `shard-${i}`, 'latest', 'report.json');
    const merged = await rdx(['report', shard(1), shard(2), shard(3), '--out', join(root, 'merged'), '--bundle']);
    const partial = await rdx(['report', shard(1), shard(2), '--out', join(root, 'merged-partial'), '--bundle']);
    return [
      scenario({ name: 'shards-merged', verdict: 'CONFORMANT', code: 0, dir: join(root, 'merged'), console: merged.stderr, run: merged }),
      scenario({ name: 'shards-one-missing', verdict: 'INCOMPLETE', code: 4, dir: join(root, 'merged-partial'), console: partial.stderr, run: partial,
        also: (s) => expect(s.toComplete.map((t) => t.unlock)).to.deep.equal(['--shard 3/3']) }),
    ];
  }

  before(async function () {
    const one = (make: () => Promise<Scenario>) => async (): Promise<Scenario[]> => [await make()];
    const withTarget = (personas: string[], fixtures: boolean, make: (t: { args: string[]; env: Record<string, string> }) => Promise<Scenario>) =>
      one(async () => make(await target(personas, fixtures)));
    // The scenarios do not depend on each other (but for the baseline on the MUST failure before it): they run side
    // by side, three at a time, and are listed in the order the checks name them.
    const made = await allLimited(SIDE_BY_SIDE, [
      // Clean: the whole suite against the bundled simulator.
      one(() => run('clean', 'CONFORMANT', 0, [])),
      mustFailureThenBaseline,
      // SHOULD-only warnings: CONFORMANT by default; NOT_CONFORMANT with --fail-on should (a part of the suite suffices).
      withTarget(['no-www-authenticate'], true, (t) => run('should-warnings', 'CONFORMANT', 0, t.args, t.env, (s) => expect(s.shouldWarnings).to.be.greaterThan(0))),
      withTarget(['no-www-authenticate'], true, (t) => run('should-failing', 'NOT_CONFORMANT', 1, [...t.args, '--grep', '^auth\\.', '--fail-on', 'should'], t.env,
        (s) => expect(s).to.include({ mustFailures: 0, errors: 0, failOn: 'should' }))),
      // INCOMPLETE by missing fixtures: a target whose profile names none.
      withTarget([], false, (t) => run('missing-fixture', 'INCOMPLETE', 4, t.args, t.env, (s) => {
        expect(s.toComplete.map((u) => u.unlock).join(' ')).to.match(/fixtures\./).and.not.include('without filters');
      })),
      // Filtered, --bail, cut by --deadline.
      one(() => run('filtered', 'INCOMPLETE', 4, ['--endpoint', '3'], {}, (s) => expect(s.toComplete.map((t) => t.unlock)).to.deep.equal(['without filters']))),
      withTarget(['status-filter-ignored'], true, (t) => run('bail', 'NOT_CONFORMANT', 1, [...t.args, '--bail'], t.env, (s) => {
        expect(s.toComplete.map((u) => u.unlock)).to.include('without --bail');
        expect(s.mustFailures + s.errors).to.equal(1);
      })),
      one(() => run('deadline', 'INCOMPLETE', 4, ['--deadline', '1s'], {}, (s) => expect(s.toComplete.map((t) => t.unlock)).to.include('--deadline'))),
      shards,
      one(interrupted),
    ]);
    scenarios.push(...made.flat());
    clean = scenarios[0] as Scenario;
  });

  /** Interrupted: SIGINT once the first suite file has reported; the run ends at once, the reports are written. */
  async function interrupted(): Promise<Scenario> {
    const reports = join(root, 'interrupted');
    const child = spawn(process.execPath, [cli, 'run', '--report-dir', reports, '--bundle'], { cwd: packageRoot, env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_'))) });
    let out = '';
    let err = '';
    let signalled = false;
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const code = await new Promise<number | null>((resolve) => {
      const limit = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        if (!signalled && /^ {2}\S.* \d+ pass/m.test(out)) {
          signalled = true;
          child.kill('SIGINT');
        }
      });
      child.once('close', (c) => {
        clearTimeout(limit);
        resolve(c);
      });
    });
    expect(signalled, 'the run reported a suite file before it ended').to.equal(true);
    return scenario({ name: 'interrupted', verdict: 'INCOMPLETE', code: 130, dir: join(reports, 'latest'), console: out, run: { code, stdout: out, stderr: err },
      also: (s) => expect(s.toComplete.map((t) => t.unlock)).to.include('an uninterrupted run') });
  }

  after(async () => {
    for (const sim of simulators) await sim.close();
    rmSync(root, { recursive: true, force: true });
  });

  const each = (check: (s: Scenario) => void | Promise<void>) => async (): Promise<void> => {
    expect(scenarios.map((s) => s.name)).to.deep.equal(['clean', 'must-failure', 'baseline', 'should-warnings', 'should-failing', 'missing-fixture',
      'filtered', 'bail', 'deadline', 'shards-merged', 'shards-one-missing', 'interrupted']);
    await allLimited(SIDE_BY_SIDE, scenarios.map((s) => async () => check(s)));
  };
  const word = (s: Scenario): string => VERDICT_WORDS[s.verdict];

  it('report.json: a report of this format, with the verdict its scenario calls for and facts that add up', each((s) => {
    const sum = s.report.summary;
    expect(reportProblem(s.report), s.name).to.equal(undefined);
    expect(sum.verdict, s.name).to.equal(s.verdict);
    expect(sum.conformant, s.name).to.equal(s.verdict === 'CONFORMANT');
    // Every unjudged MUST case by id, each once, with what unlocks it.
    const ids = sum.toComplete.flatMap((t) => t.cases);
    expect(ids.length, s.name).to.equal(sum.unjudgedMust);
    expect(new Set(ids).size, s.name).to.equal(ids.length);
    for (const t of sum.toComplete) expect(t.unlock && t.how, s.name).to.be.a('string').and.not.equal('');
    expect(sum.total, s.name).to.equal(s.report.cases.length);
    s.also?.(sum);
  }));

  it('the exit code is the verdict\'s', each((s) => {
    // Interrupted runs exit 128 + the signal; rdx run and rdx report otherwise exit by the verdict.
    if (s.name !== 'interrupted') expect(exitCodeOf(s.report.summary), s.name).to.equal(s.code);
  }));

  it('the console\'s last lines state the verdict, the counts and what would complete it', each((s) => {
    const sum = s.report.summary;
    const lines = s.console.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`${word(s)}: `));
    expect(at, `${s.name}: ${s.console.slice(-600)}`).to.be.greaterThan(-1);
    expect(lines[at], s.name).to.match(new RegExp(`^${verdictLine(sum).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`));
    if (sum.mustFailures) expect(lines[at], s.name).to.include(`${sum.mustFailures} MUST failure(s)`);
    if (sum.unjudgedMust) {
      expect(lines[at], s.name).to.include(`${sum.unjudgedMust} MUST case(s) not judged`);
      expect(lines[at + 1], s.name).to.equal(`To complete this certification (${sum.unjudgedMust} MUST case(s) not judged):`);
    }
  }));

  it('rdx run\'s console ends with what to do next, from the same verdict and failures', each((s) => {
    if (s.name.startsWith('shards-')) return; // rdx report: no run to follow up
    const last = s.console.trimEnd().split('\n').at(-1) ?? '';
    const sum = s.report.summary;
    const failing = s.report.cases.some(isProblem);
    const expected = failing ? 'Next: fix the first failure group above (' : sum.unjudgedMust ? 'Next: unlock the MUST cases not judged' : sum.knownFailures ? 'Next: fix the known failures' : 'Next: ';
    expect(last, `${s.name}: ${s.console.slice(-400)}`).to.satisfy((l: string) => l.startsWith(expected));
  }));

  it('junit.xml carries the verdict and the counts as properties of its verdict suite', each((s) => {
    const xml = readFileSync(join(s.dir, 'junit.xml'), 'utf8');
    const prop = (name: string): string | undefined => new RegExp(`<property name="${name}" value="([^"]*)"/>`).exec(xml)?.[1];
    const sum = s.report.summary;
    expect(prop('verdict'), s.name).to.equal(s.verdict);
    for (const k of ['total', 'mustFailures', 'errors', 'shouldWarnings', 'knownFailures', 'unjudgedMust'] as const) expect(prop(k), `${s.name} ${k}`).to.equal(String(sum[k]));
    expect(xml, s.name).to.include(`name="verdict: ${word(s)}"`);
  }));

  it('report.html states the verdict, its sentence and the MUST cases not judged', each((s) => {
    const html = readFileSync(join(s.dir, 'report.html'), 'utf8');
    const sum = s.report.summary;
    expect(/<div class="verdict-word">([^<]*)<\/div>/.exec(html)?.[1], s.name).to.equal(word(s));
    expect(/<div class="verdict-why">([^<]*)<\/div>/.exec(html)?.[1], s.name).to.include(verdictLine(sum).slice(word(s).length + 2));
    expect(html, s.name).to.include(`<title>${word(s)} · `);
    expect(/<section id="not-judged"><h2>[^<]*<span class="count">\((\d+) MUST/.exec(html)?.[1], s.name).to.equal(String(sum.unjudgedMust));
    if (sum.unjudgedMust === 0) expect(html, s.name).to.include('Every MUST case was judged.');
    else expect(html, s.name).to.not.include('Every MUST case was judged.');
  }));

  it('report.html reads the same in Chromium', async function () {
    skipWithoutChromium(this);
    const browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
    try {
      await each(async (s) => {
        const page = await browser.context.newPage();
        await page.goto(`file://${join(s.dir, 'report.html')}`);
        expect((await page.textContent('.verdict-word'))?.trim(), s.name).to.equal(word(s));
        expect(await page.textContent('.verdict-why'), s.name).to.include(verdictLine(s.report.summary).slice(word(s).length + 2));
        expect(await page.textContent('#not-judged h2'), s.name).to.include(`(${s.report.summary.unjudgedMust} MUST`);
        await page.close();
      })();
    } finally {
      await browser.close();
    }
  });

  it('the bundle\'s manifest and rdx verify state the same verdict; rdx badge draws it', each(async (s) => {
    const bundle = join(s.dir, 'bundle.tar.gz');
    const files = tarUnpack(gunzipSync(readFileSync(bundle)));
    const manifestBytes = files.find((f) => f.name === 'manifest.json')?.data as Buffer;
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as { run: { verdict: string; unjudgedMust: number; conformant: boolean } };
    const sum = s.report.summary;
    expect(manifest.run, s.name).to.deep.include({ verdict: sum.verdict, unjudgedMust: sum.unjudgedMust, conformant: sum.conformant });
    const pin = sha256Hex(manifestBytes);
    const badgeFile = join(root, `${s.name}.svg`);
    const [verified, badge] = await Promise.all([
      rdx(['verify', bundle, '--manifest-sha256', pin]),
      rdx(['badge', bundle, '--manifest-sha256', pin, '--out', badgeFile]),
    ]);
    expect(verified.code, `${s.name}: ${verified.stderr}`).to.equal(0);
    expect(verified.stdout, s.name).to.include(`verdict ${word(s)}${sum.unjudgedMust ? ` (${sum.unjudgedMust} MUST case(s) not judged)` : ','}`);
    expect(badge.code, `${s.name}: ${badge.stderr}`).to.equal(0);
    expect(badge.stdout, s.name).to.equal(`${word(s)}: badge written to ${badgeFile}\n`);
    expect(readFileSync(badgeFile, 'utf8'), s.name).to.include(`>${word(s)}</text>`);
  }));

  it('rdx diff against the clean run reads both verdicts and gates on a worse one', each(async (s) => {
    const d = await rdx(['diff', join(clean.dir, 'report.json'), join(s.dir, 'report.json'), '--format', 'json', '--fail-on-regression']);
    const diff = JSON.parse(d.stdout) as ReportDiff;
    expect(diff.old.verdict, s.name).to.equal('CONFORMANT');
    expect(diff.new.verdict, s.name).to.equal(s.verdict);
    // Anything but CONFORMANT is worse than the clean run: a regression, so the gate fails.
    expect(diff.verdictWorse, s.name).to.equal(s.verdict !== 'CONFORMANT');
    expect(d.code, s.name).to.equal(diff.regressions > 0 ? 1 : 0);
    if (s.verdict !== 'CONFORMANT') expect(diff.regressions, s.name).to.be.greaterThan(0);
    // Every MUST case the clean run judged and this one did not is listed.
    const judgedHere = new Set(s.report.cases.filter((c) => c.verdict !== 'skip').map((c) => c.id));
    const lost = clean.report.cases.filter((c) => c.level === 'MUST' && !judgedHere.has(c.id)).map((c) => c.id).sort();
    expect(diff.newlyUnjudged.filter((c) => c.level === 'MUST').map((c) => c.id).sort(), s.name).to.deep.equal(lost);
  }));

  it('the dashboard\'s run card shows the report\'s verdict and counts', each((s) => {
    const card = runCard({ summary: s.report.summary, cases: s.report.cases });
    const sum = s.report.summary;
    expect(card, s.name).to.include({
      verdict: s.verdict, word: word(s), line: verdictLine(sum), why: verdictWhy(sum), total: sum.total, mustFailures: sum.mustFailures, errors: sum.errors,
      shouldWarnings: sum.shouldWarnings, knownFailures: sum.knownFailures, unjudgedMust: sum.unjudgedMust,
    });
    expect(card.toComplete, s.name).to.deep.equal(sum.toComplete);
  }));

  it('examples/job-summary.mjs writes the same verdict and counts, and what would complete the run', each(async (s) => {
    const r = await runProgram(process.execPath, [join(packageRoot, 'examples', 'job-summary.mjs'), join(s.dir, 'report.json')], { limitMs: 30_000 });
    expect(r.code, `${s.name}: ${r.stderr}`).to.equal(0);
    const sum = s.report.summary;
    expect(r.stdout.split('\n')[0], s.name).to.equal(`### RDX conformance: ${word(s)}`);
    expect(r.stdout, s.name).to.include(`${sum.mustFailures} MUST failure(s), ${sum.errors} error(s), ${sum.shouldWarnings} SHOULD warning(s)`)
      .and.include(`${sum.unjudgedMust} MUST case(s) not judged, ${sum.knownFailures} known failure(s)`);
    if (sum.unjudgedMust) expect(r.stdout, s.name).to.include(`**To complete this certification** (${sum.unjudgedMust} MUST case(s) not judged):`);
    else expect(r.stdout, s.name).to.not.include('To complete this certification');
  }));

  /** The ids of the cases a failure list shows, in the order it shows them. */
  const problems = (s: Scenario): string[] => s.report.cases.filter(isProblem).sort(worstFirst).map((c) => c.id);
  const counted = (byVerdict: Record<string, number>, join: string): string => countsInOrder(byVerdict).map(([v, n]) => `${n} ${v}`).join(join);

  it('the console counts each suite and the run in the one order of verdicts', each((s) => {
    const sum = s.report.summary;
    expect(s.console, s.name).to.include(`${verdictLine(sum)} (${counted(sum.byVerdict, ', ')}`);
    // A suite's line: "  ats/job-offers   12 fail · 3 pass"; rdx report prints none.
    const tallies = [...s.console.matchAll(/^ {2}\S.*? {2,}(\d+ [a-z-]+(?: · \d+ [a-z-]+)*)$/gm)].map((m) => m[1] as string);
    if (!s.name.startsWith('shards-')) expect(tallies, s.name).to.not.be.empty;
    for (const tally of tallies) {
      const verdicts = tally.split(' · ').map((part) => part.replace(/^\d+ /, ''));
      expect(verdicts, `${s.name}: ${tally}`).to.deep.equal(CASE_VERDICTS.filter((v) => verdicts.includes(v)));
    }
  }));

  it('report.html shows each case\'s verdict, its failures worst first and its counts in the one order', each((s) => {
    const html = readFileSync(join(s.dir, 'report.html'), 'utf8');
    expect(html, s.name).to.include(`<div class="verdict v-${RUN_VERDICT_CLASS[s.verdict]}">`);
    const failures = [...html.matchAll(/<article class="case card v-[^"]*" id="failure-[^"]*" data-id="([^"]*)"/g)].map((m) => m[1]);
    expect(failures, s.name).to.deep.equal(problems(s));
    const shown = new Map([...html.matchAll(/data-id="([^"]*)" data-verdict="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    for (const c of s.report.cases) expect(shown.get(c.id), `${s.name} ${c.id}`).to.equal(shownVerdict(c));
    const head = /<table class="counts"><thead><tr><th>Level<\/th>(.*?)<th>Total/.exec(html)?.[1] ?? '';
    expect([...head.matchAll(/class="badge v-([^"]+)"/g)].map((m) => m[1]), s.name).to.deep.equal([...CASE_VERDICTS]);
  }));

  it('examples/job-summary.mjs lists the failures and the counts as every other output does', each(async (s) => {
    const r = await runProgram(process.execPath, [join(packageRoot, 'examples', 'job-summary.mjs'), join(s.dir, 'report.json')], { limitMs: 30_000 });
    expect(r.stdout, s.name).to.include(` · ${counted(s.report.summary.byVerdict, ', ')}\n`);
    // The failures grouped as the console and report.html group them (src/core/failures.ts): the same groups, in the
    // same order, each with its level, clause or cause, case count and first cases.
    const rows = [...r.stdout.matchAll(/^\| (FAIL|WARN|ERROR) \| ([A-Z]+) \| (.*?) \| (\d+): (.*?) \| /gm)]
      .map((m) => ({ word: m[1], level: m[2], what: m[3], count: Number(m[4]), first: [...(m[5] ?? '').matchAll(/`([^`]+)`/g)].map((x) => x[1]) }));
    const groups = failureGroups(s.report.cases);
    expect(rows.map((g) => [g.level, g.what, g.count]), s.name).to.deep.equal(groups.map((g) => [g.level,
      g.cause ? `caused by a ${g.cause.method}: ${g.cause.clauses.map((c) => `\`${c}\``).join(', ')}` : g.clause === '-' ? 'no judgement' : `\`${g.clause}\``, g.cases.length]));
    rows.forEach((row, i) => expect(row.first, s.name).to.deep.equal(groups[i]?.cases.slice(0, 5).map((c) => c.id)));
    expect(new Set(groups.flatMap((g) => g.cases.map((c) => c.id))), s.name).to.deep.equal(new Set(problems(s)));
  }));

  it('rdx diff shows each changed case\'s verdict as the reports do', each(async (s) => {
    const d = await rdx(['diff', join(clean.dir, 'report.json'), join(s.dir, 'report.json'), '--format', 'json']);
    const diff = JSON.parse(d.stdout) as ReportDiff;
    const now = new Map(s.report.cases.map((c) => [c.id, shownVerdict(c)]));
    const before = new Map(clean.report.cases.map((c) => [c.id, shownVerdict(c)]));
    for (const c of [...diff.newlyFailing, ...diff.newlyPassing, ...diff.newlyUnjudged, ...diff.otherChanges]) {
      expect(c.new, `${s.name} ${c.id}`).to.equal(now.get(c.id) ?? null);
      expect(c.old, `${s.name} ${c.id}`).to.equal(before.get(c.id) ?? null);
    }
  }));

  it('rdx report\'s merge keeps the worse verdict of a case that ran in several shards, by the one order', () => {
    const shards = [1, 2, 3].map((i) => JSON.parse(readFileSync(join(root, `shard-${i}`, 'latest', 'report.json'), 'utf8')) as RunReport);
    for (const name of ['shards-merged', 'shards-one-missing']) {
      const merged = scenarios.find((s) => s.name === name) as Scenario;
      const kept = new Map(merged.report.cases.map((c) => [c.id, verdictRank(shownVerdict(c))]));
      const from = name === 'shards-merged' ? shards : shards.slice(0, 2);
      for (const c of from.flatMap((r) => r.cases)) expect(kept.get(c.id), `${name} ${c.id}`).to.be.at.least(verdictRank(shownVerdict(c)));
    }
  });

  it('refuses a report of another format everywhere it is read, with exit 2 and a clear message', async () => {
    const other = structuredClone(clean.report) as unknown as Record<string, unknown>;
    other['format'] = 'rdx-report/0';
    const dir = join(root, 'other-format');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'report.json');
    writeFileSync(file, JSON.stringify(other));
    const [report, diff, badge, summary] = await Promise.all([
      rdx(['report', file, '--out', join(dir, 'out')]),
      rdx(['diff', join(clean.dir, 'report.json'), file]),
      rdx(['badge', file, '--stdout']),
      runProgram(process.execPath, [join(packageRoot, 'examples', 'job-summary.mjs'), file], { limitMs: 30_000 }),
    ]);
    for (const [name, r] of [['report', report], ['diff', diff], ['badge', badge], ['job-summary', summary]] as const) {
      expect(r.code, name).to.equal(2);
      expect(r.stderr, name).to.include('format: expected "rdx-report/1", got "rdx-report/0"').and.not.match(/\n\s+at /);
    }
  });
});
