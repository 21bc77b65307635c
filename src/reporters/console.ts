// The console of `rdx run` (reporter "rdx", the default): one line per suite file with its counts, and under it one
// line per failing case (case, clause, finding), with a stack only under --debug. Everything goes to stdout, where
// the summary lines follow; stderr is for errors. Any text the target sent goes through escapeTerminal.
import Mocha from 'mocha';
import type { CaseResult } from '../core/results.js';
import type { JudgedTest } from '../engine/judged-test.js';
import { escapeTerminal } from '../core/terminal.js';

const { EVENT_SUITE_END, EVENT_TEST_END, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

/** Longest finding shown on a line; report.html has the whole of it. */
const LINE = 220;
const ORDER = ['pass', 'observed', 'known-failure', 'skip', 'warn', 'fail', 'error'];

/** A target's text on one line: control characters escaped, whitespace runs folded, long text cut. */
export function oneLine(text: string, max = LINE): string {
  const flat = escapeTerminal(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const shown = (r: CaseResult): string => (r.baseline ? 'known-failure' : r.verdict);

/** "FAIL  [MUST] case-id  CLAUSE (+1 more)  finding": what broke, where in the spec, and what came back. */
export function failureLine(r: CaseResult): string {
  const failed = r.assertions.filter((a) => !a.passed);
  const first = failed.find((a) => a.level === 'MUST') ?? failed[0];
  const clauses = [...new Set(failed.map((a) => a.clause))];
  const clause = first ? `${first.clause}${clauses.length > 1 ? ` (+${clauses.length - 1} more)` : ''}` : '-';
  const why = first?.message ?? r.reason ?? '';
  return `${shown(r).toUpperCase().padEnd(5)} [${r.level}] ${r.id}  ${clause}  ${oneLine(why)}`;
}

export class ConsoleReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const debug = (options?.reporterOptions as { debug?: boolean } | undefined)?.debug === true;
    const out = (line: string): void => { process.stdout.write(`${line}\n`); };
    let counts = new Map<string, number>();
    let problems: string[] = [];
    const errors = new Map<Mocha.Test, Error>();
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: Error) => { errors.set(test, error); });
    runner.on(EVENT_TEST_PENDING, () => {});
    runner.on(EVENT_TEST_END, (test: Mocha.Test) => {
      const r = (test as JudgedTest).rdx;
      const verdict = r ? shown(r) : test.state === 'failed' ? 'error' : test.state === 'pending' ? 'skip' : 'pass';
      counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
      if (r && ['fail', 'warn', 'error'].includes(verdict)) {
        problems.push(`    ${failureLine(r)}`);
        const stack = errors.get(test)?.stack;
        if (debug && stack) problems.push(stack.replace(/^/gm, '        '));
      } else if (!r && test.state === 'failed') {
        // A test the engine did not judge (should not happen): still one line, the stack only under --debug.
        const e = errors.get(test);
        problems.push(`    ERROR ${oneLine(test.title)}  ${oneLine(e?.message ?? '')}`);
        if (debug && e?.stack) problems.push(e.stack.replace(/^/gm, '        '));
      }
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      if (suite.root || !suite.parent?.root) return;
      const tally = ORDER.filter((v) => counts.get(v)).map((v) => `${counts.get(v)} ${v}`).join(' · ');
      out(`  ${suite.title.padEnd(28)} ${tally}`);
      for (const line of problems) out(line);
      counts = new Map();
      problems = [];
    });
  }
}
