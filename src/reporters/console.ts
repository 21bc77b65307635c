// The console of `rdx run` (reporter "rdx", the default): one line per suite file with its counts and, once the run
// ends, its failures grouped by the clause that broke (src/core/failures.ts): one line per clause and finding with
// the level of that clause, how many cases and which step of each. Under --debug, one line per failing case under its
// suite too, with the stack. Everything goes to stdout, where the summary lines follow; stderr is for errors. Any text
// the target sent goes through escapeTerminal.
import Mocha from 'mocha';
import { CASE_VERDICTS, isProblemVerdict, shownVerdict } from '../core/case-view.js';
import { causedStep, failureGroups, stepLabel, type FailureGroup } from '../core/failures.js';
import type { CaseResult } from '../core/results.js';
import type { JudgedTest } from '../engine/judged-test.js';
import { escapeTerminal } from '../core/terminal.js';

const { EVENT_RUN_END, EVENT_SUITE_END, EVENT_TEST_END, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

/** Longest finding shown on a line; report.html has the whole of it. */
const LINE = 220;

/** A target's text on one line: control characters escaped, whitespace runs folded, long text cut. */
export function oneLine(text: string, max = LINE): string {
  const flat = escapeTerminal(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * "FAIL  [MUST] case-id  CLAUSE (+1 more)  step 2 GET /ats/job-offers/{id}  finding": what broke, at which level of
 * the spec (the clause's, not the case's: a SHOULD case whose clean-up broke a MUST clause is a MUST failure), at
 * which step, and what came back.
 */
export function failureLine(r: CaseResult): string {
  const failed = r.assertions.filter((a) => !a.passed);
  const first = failed.find((a) => a.level === 'MUST') ?? failed[0];
  const clauses = [...new Set(failed.map((a) => a.clause))];
  const clause = first ? `${first.clause}${clauses.length > 1 ? ` (+${clauses.length - 1} more)` : ''}` : '-';
  const step = first ? stepLabel(r.exchanges, first.exchange) : undefined;
  const why = first?.message ?? r.reason ?? '';
  return `${shownVerdict(r).toUpperCase().padEnd(5)} [${first?.level ?? r.level}] ${r.id}  ${clause}  ${step ? `${step}  ` : ''}${oneLine(why)}`;
}

/** Case ids shown per group on the console; report.html and report.json have them all. */
const SHOWN_CASES = 3;

/**
 * One group: "FAIL  [MUST] ENVELOPE.MESSAGE — 75 cases: status 404: message is missing" and under it the first cases
 * with their failing step.
 */
export function groupLines(g: FailureGroup): string[] {
  const word = g.level === 'MUST' ? 'FAIL' : g.level === 'SHOULD' ? 'WARN' : 'ERROR';
  const n = g.cases.length;
  const other = g.findings > 1 ? ` (+${g.findings - 1} other finding${g.findings > 2 ? 's' : ''})` : '';
  const what = g.cause ? `caused by a ${g.cause.method}: ${g.cause.clauses.join(', ')}` : g.clause === '-' ? 'no judgement' : g.clause;
  const head = `${word.padEnd(5)} [${g.level}] ${what} — ${n} case${n === 1 ? '' : 's'}: ${oneLine(g.finding)}${other}`;
  const shownCases = g.cases.slice(0, SHOWN_CASES).map((c) => `${c.id}${c.step ? ` (${oneLine(causedStep(c), 160)})` : ''}`);
  return [head, `      ${shownCases.join(', ')}${n > SHOWN_CASES ? `, +${n - SHOWN_CASES} more` : ''}`];
}

/** The failures of a run grouped by clause and finding, worst first; empty when nothing failed. */
export function failureGroupLines(cases: CaseResult[]): string[] {
  const groups = failureGroups(cases);
  if (!groups.length) return [];
  const failing = new Set(groups.flatMap((g) => g.cases.map((c) => c.id))).size;
  return [
    `Failures by clause (${groups.length} group${groups.length === 1 ? '' : 's'}, ${failing} case${failing === 1 ? '' : 's'}; report.html has each one's evidence):`,
    ...groups.flatMap((g) => groupLines(g).map((l) => `  ${l}`)),
  ];
}

export class ConsoleReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const debug = (options?.reporterOptions as { debug?: boolean } | undefined)?.debug === true;
    const out = (line: string): void => { process.stdout.write(`${line}\n`); };
    let counts = new Map<string, number>();
    let problems: string[] = [];
    const errors = new Map<Mocha.Test, Error>();
    const results: CaseResult[] = [];
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: Error) => { errors.set(test, error); });
    runner.on(EVENT_TEST_PENDING, () => {});
    runner.on(EVENT_TEST_END, (test: Mocha.Test) => {
      const r = (test as JudgedTest).rdx;
      const verdict = r ? shownVerdict(r) : test.state === 'failed' ? 'error' : test.state === 'pending' ? 'skip' : 'pass';
      counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
      if (r) results.push(r);
      if (r && debug && isProblemVerdict(verdict)) {
        problems.push(`    ${failureLine(r)}`);
        const stack = errors.get(test)?.stack;
        if (stack) problems.push(stack.replace(/^/gm, '        '));
      } else if (!r && test.state === 'failed') {
        // A test the engine did not judge (should not happen): still one line, the stack only under --debug.
        const e = errors.get(test);
        problems.push(`    ERROR ${oneLine(test.title)}  ${oneLine(e?.message ?? '')}`);
        if (debug && e?.stack) problems.push(e.stack.replace(/^/gm, '        '));
      }
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      if (suite.root || !suite.parent?.root) return;
      const tally = CASE_VERDICTS.filter((v) => counts.get(v)).map((v) => `${counts.get(v)} ${v}`).join(' · ');
      out(`  ${suite.title.padEnd(28)} ${tally}`);
      for (const line of problems) out(line);
      counts = new Map();
      problems = [];
    });
    runner.on(EVENT_RUN_END, () => {
      const lines = failureGroupLines(results);
      if (lines.length) out(`\n${lines.join('\n')}`);
    });
  }
}
