// The one rule for skipped (pending) tests, as the mocha reporter of .mocharc.json (the built file):
// after the last test it prints, per entry of test/support/allowed-skips.yaml, how many of the tests it names ran and
// skipped (so CI shows its browser and Docker tests ran), then every skipped test with the reason the list gives.
// In CI (CI=true) a skipped test that the list does not allow there fails the run; elsewhere it is printed and the
// run goes on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import { parse } from 'yaml';
import { packageRoot } from '../../src/spec/index.js';

export const ALLOWED_SKIPS_FILE = 'test/support/allowed-skips.yaml';

export interface AllowedSkip {
  /** A regular expression matched against the test's full title (its suites' titles, then its own). */
  test: RegExp;
  reason: string;
  /** Whether it may skip in CI too (true only for what CI itself may lack). */
  ci: boolean;
}

/** The entries of the allowed-skips file; a malformed one is an error naming the file, the index and the field. */
export function parseAllowedSkips(text: string, file = ALLOWED_SKIPS_FILE): AllowedSkip[] {
  const doc: unknown = parse(text);
  if (!Array.isArray(doc)) throw new Error(`${file}: expected a list of { test, reason, ci } entries`);
  return doc.map((raw: unknown, i) => {
    const at = `${file}: [${i}]`;
    const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const { test, reason, ci } = entry;
    if (typeof test !== 'string' || test === '') throw new Error(`${at}.test: expected the pattern of a test title`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new Error(`${at}.reason: say why the test may skip`);
    if (typeof ci !== 'boolean') throw new Error(`${at}.ci: expected true or false (whether it may skip in CI too)`);
    const unknown = Object.keys(entry).filter((k) => !['test', 'reason', 'ci'].includes(k));
    if (unknown.length > 0) throw new Error(`${at}: unknown field ${unknown.join(', ')}`);
    try {
      return { test: new RegExp(test), reason: reason.trim(), ci };
    } catch (error) {
      throw new Error(`${at}.test: not a regular expression (${(error as Error).message})`, { cause: error });
    }
  });
}

export interface PendingVerdict {
  /** Per reason (or lack of one), the reason and the skipped tests it covers. */
  lines: string[];
  /** What fails the run: skipped tests the list does not allow here. */
  problems: string[];
}

/**
 * Judges the skipped tests of a run (their full titles): the lines print them grouped under the reason that allows
 * them (each reason once), then those no reason allows here.
 */
export function judgePending(pending: string[], allowed: AllowedSkip[], ci: boolean): PendingVerdict {
  const groups = new Map<string, string[]>();
  const problems: string[] = [];
  const add = (heading: string, title: string): void => {
    groups.set(heading, [...(groups.get(heading) ?? []), title]);
  };
  for (const title of pending) {
    const fits = allowed.filter((a) => a.test.test(title));
    const entry = fits.find((a) => a.ci || !ci) ?? fits[0];
    if (entry && (entry.ci || !ci)) {
      add(`allowed: ${entry.reason}`, title);
    } else {
      const why = entry ? `${ALLOWED_SKIPS_FILE} allows it outside CI only` : `not in ${ALLOWED_SKIPS_FILE}`;
      add(`${ci ? 'NOT ALLOWED in CI' : 'would fail CI'}: ${why}`, title);
      if (ci) problems.push(`skipped in CI: ${title} (${why})`);
    }
  }
  const lines = [...groups].map(([heading, titles]) => `  ${heading}\n${titles.map((t) => `    - ${t}`).join('\n')}`);
  return { lines, problems };
}

/** Per entry of the list: how many of the tests it names ran and how many skipped (the browser and Docker counts). */
export function skippableCounts(tests: { title: string; state: string | undefined }[], allowed: AllowedSkip[]): string[] {
  return allowed.map((entry) => {
    const named = tests.filter((t) => entry.test.test(t.title));
    const ran = named.filter((t) => t.state === 'passed' || t.state === 'failed').length;
    const skipped = named.filter((t) => t.state === 'pending').length;
    return `  ${entry.test.source}: ${ran} ran, ${skipped} skipped`;
  });
}

/**
 * The spec reporter plus the skip rule, in mocha's main process: with `--parallel` each file runs in a worker, and
 * only the reporter sees every test of the run. A skip the list does not allow in CI counts as a failure of the run.
 */
export default class PendingReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;
    const seen: { title: string; state: string }[] = [];
    runner.on(EVENT_TEST_PASS, (test) => seen.push({ title: test.fullTitle(), state: 'passed' }));
    runner.on(EVENT_TEST_FAIL, (test) => {
      // A failing hook is reported as a failure too; only tests count as run.
      if (test.type === 'test') seen.push({ title: test.fullTitle(), state: 'failed' });
    });
    runner.on(EVENT_TEST_PENDING, (test) => seen.push({ title: test.fullTitle(), state: 'pending' }));
    // Registered before the runner's own end listener, which hands the failure count to mocha's exit code.
    runner.once(EVENT_RUN_END, () => {
      const problems = reportPending(seen, process.env['CI'] === 'true', (text) => process.stdout.write(text));
      if (problems.length === 0) return;
      process.stdout.write(`\n  FAILED: tests were skipped in CI that ${ALLOWED_SKIPS_FILE} does not allow there:\n${problems.join('\n')}\n`);
      runner.failures += problems.length;
    });
  }
}

/** Prints the counts and the skipped tests of a run; returns what fails it. */
function reportPending(tests: { title: string; state: string }[], ci: boolean, print: (text: string) => void): string[] {
  const allowed = parseAllowedSkips(readFileSync(join(packageRoot, ALLOWED_SKIPS_FILE), 'utf8'));
  const pending = tests.filter((t) => t.state === 'pending').map((t) => t.title);
  const { lines, problems } = judgePending(pending, allowed, ci);
  print(`\n  Tests that may skip (${ALLOWED_SKIPS_FILE}), here:\n${skippableCounts(tests, allowed).join('\n')}\n`);
  if (pending.length > 0) print(`\n  Skipped tests (${pending.length}), as ${ALLOWED_SKIPS_FILE} explains:\n${lines.join('\n')}\n`);
  return problems;
}
