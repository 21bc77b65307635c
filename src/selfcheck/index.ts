// The self-check: the harness run against its own simulator, clean, under every legal variant and under every fault
// persona. A legal variant that gets a MUST failure is a false accusation; a fault that no assertion of the clause it
// breaks catches is a miss. The share of faults caught is the suite's mutation score.
//
//   node dist/src/selfcheck/index.js [--only NAME,NAME] [--workers N] [--every-concurrency]
//                                       prints the table; exit 1 when anything is wrong. Each persona runs once at the
//                                       default concurrency, and again at 1 when its answers may depend on the
//                                       schedule (schedule.ts; --every-concurrency: all of them); --workers N runs N
//                                       side by side in processes of their own (default: pool.ts selfCheckWorkers)
import { pathToFileURL } from 'node:url';
import { runAsProgram } from '../cli/exit.js';
import { clause as clauseOf, type ClauseLevel } from '../spec/index.js';
import { defaults, type Profile } from '../config/profile.js';
import { DEFAULT_EXPLORE_BUDGET } from '../engine/explore/index.js';
import { runConformance, type Summary } from '../engine/run.js';
import type { CaseFilters } from '../engine/plan.js';
import type { CaseResult } from '../core/results.js';
import { DEFAULT_CONCURRENCY } from '../engine/pool.js';
import { ownAssertions, ownVerdict } from '../engine/request.js';
import { allPersonas, type Persona } from '../../simulator/personas/index.js';
import { embeddedSimulator } from '../compose.js';
import { scheduleDependence } from './schedule.js';
import { createRunPool, selfCheckWorkers } from './pool.js';

export interface FailedAssertion {
  caseId: string;
  clause: string;
  level: ClauseLevel;
  message: string;
}

export interface PersonaRun {
  /** The persona's name, or "clean" for the simulator as it is. */
  name: string;
  kind: 'clean' | Persona['kind'];
  description: string;
  breaks: string[];
  /** Whether the run's profile carried the variant's declarations (Persona.declared). */
  declared: boolean;
  /** Whether it also carried the rest of the variant's profile (Persona.profile: its id sources), so must be complete. */
  profiled: boolean;
  summary: Summary;
  mustFailures: FailedAssertion[];
  shouldFailures: FailedAssertion[];
  errors: { caseId: string; reason: string }[];
  skipped: string[];
  /** Faults: the cases with a failed assertion of a clause the persona breaks, at that clause's level. */
  catching: string[];
  /** Faults: clauses that failed besides those it breaks (what the fault drags along, or a misattribution). */
  collateral: string[];
  /** A fault made to show what exploration catches (Persona.forExploration): an explore case must be among its catchers. */
  forExploration?: boolean;
  /**
   * Faults: the run held only the cases that cite a clause the persona breaks (`--clause`), and they caught it; a
   * narrowed run that does not is made again over every case, so the narrowing never makes a fault look missed.
   */
  narrowed?: boolean;
  durationMs: number;
  /** The run at --concurrency 1 when this one ran side by side: where a case's verdict or failing clauses differ. */
  serialDifferences?: string[];
  /** Each case's verdict and failing clauses, to compare runs at two concurrencies. */
  outcomes: CaseOutcome[];
  /**
   * Throttled answers the end-of-run sweep met, for a persona that limits DELETEs (options.deleteRateLimit); such a
   * run that met none proves nothing about waiting in the sweep (issue 36), and is a problem.
   */
  sweepThrottled?: number;
}

/** What must be the same whatever the concurrency: a case's verdict and the clauses it fails. */
export interface CaseOutcome {
  id: string;
  verdict: string;
  failing: string[];
}

/**
 * A case's outcome, leaving out the judgements of throttled answers (429): which case meets the target's rate limit
 * depends on timing at any concurrency, so those are compared run against run (the clauses), not case by case.
 */
export function caseOutcome(c: CaseResult): CaseOutcome {
  const failing = ownAssertions(c).filter((a) => !a.passed).map((a) => `${a.level} ${a.clause}`);
  return { id: c.id, verdict: ownVerdict(c), failing: unique(failing).sort() };
}

/** Where two runs' outcomes differ, case by case, one line each; each run named by its label ("at --concurrency 1"). */
export function outcomeDifferences(a: { label: string; outcomes: CaseOutcome[] }, b: { label: string; outcomes: CaseOutcome[] }): string[] {
  const other = new Map(b.outcomes.map((o) => [o.id, o]));
  const shown = (o: CaseOutcome): string => `${o.verdict}${o.failing.length ? ` (${o.failing.join(', ')})` : ''}`;
  const lines: string[] = [];
  for (const x of a.outcomes) {
    const y = other.get(x.id);
    if (!y) lines.push(`case ${x.id} ran ${a.label} only`);
    else if (x.verdict !== y.verdict || x.failing.join() !== y.failing.join()) lines.push(`case ${x.id}: ${shown(x)} ${a.label}, ${shown(y)} ${b.label}`);
  }
  return lines;
}

export interface SelfCheckResult {
  runs: PersonaRun[];
  /** knownMisses: faults of KNOWN_MISSES that ran (counted in total, not in caught). */
  faults: { total: number; caught: number; score: number; knownMisses: number };
}

const CLEAN = 'clean';

/**
 * Faults the suites cannot catch yet, each with the suite or check change that would catch it. The self-check
 * requires these to stay uncaught (so the list only shrinks, an entry at a time, as the suites grow) and every other
 * fault to be caught. The score it prints counts them as missed.
 */
export const KNOWN_MISSES: Readonly<Record<string, string>> = {};

/**
 * SHOULD warnings a legal variant rightly gets, each with the reason it is right: the variant departs from an HTTP or
 * OAuth convention that the spec leaves open. Any other SHOULD warning on a variant is a problem, like one on the
 * clean simulator.
 */
export const EXPECTED_WARNINGS: Readonly<Record<string, { clauses: string[]; why: string }>> = {};

/** The SHOULD warnings of a run that nothing explains (a fault's are its own business). */
function unexplainedWarnings(run: PersonaRun): FailedAssertion[] {
  if (run.kind === 'fault') return [];
  const allowed = EXPECTED_WARNINGS[run.name]?.clauses ?? [];
  return run.shouldFailures.filter((a) => !allowed.includes(a.clause));
}

function failedAssertions(cases: CaseResult[], level: ClauseLevel): FailedAssertion[] {
  // Only judged cases count: assertions of a case that ended as skip or error are not in its verdict.
  return cases.filter((c) => c.verdict === 'fail' || c.verdict === 'warn').flatMap((c) => c.assertions
    .filter((a) => !a.passed && a.level === level)
    .map((a) => ({ caseId: c.id, clause: a.clause, level: a.level, message: a.message })));
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/**
 * Explore budget per explore case where exploration is not what must catch the persona: those runs prove no false
 * accusation at one seed (explore-seeds.ts judges that at twenty, at the default budget), and a rate-limited persona
 * would otherwise spend most of its run waiting.
 */
export const SELFCHECK_EXPLORE_BUDGET = { requests: 100, seconds: 15 };

/**
 * One harness run against the embedded simulator with the persona (none: the clean simulator): every case, or only
 * those `filters` select.
 */
export async function runPersona(persona: Persona | undefined, declare = false, concurrency?: number, filters?: CaseFilters): Promise<PersonaRun> {
  const started = performance.now();
  const profile: Profile = {
    ...defaults(),
    // PUT /users is judged too: the embedded simulator is thrown away after the run.
    allowIrreversible: true,
    // The default budget where exploration is what must catch the fault.
    explore: persona?.forExploration ? { ...DEFAULT_EXPLORE_BUDGET } : { ...SELFCHECK_EXPLORE_BUDGET },
    declared: declare ? { ...(persona?.declared ?? {}) } : {},
    // A vendor that declares its reading also says how its ids are learned, where the variant needs that.
    ...(declare && persona?.profile?.idSources ? { idSources: persona.profile.idSources } : {}),
  };
  const { report } = await runConformance({
    profile,
    reporter: 'none',
    simulator: embeddedSimulator(persona ? { personas: [persona] } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(filters ? { filters } : {}),
  });
  const must = failedAssertions(report.cases, 'MUST');
  const should = failedAssertions(report.cases, 'SHOULD');
  const breaks = persona?.breaks ?? [];
  const catching = unique([...must, ...should]
    .filter((a) => breaks.includes(a.clause) && clauseOf(a.clause).level === a.level)
    .map((a) => a.caseId));
  return {
    name: persona?.name ?? CLEAN,
    kind: persona?.kind ?? 'clean',
    description: persona?.description ?? 'The reference simulator as it ships.',
    breaks,
    declared: declare && persona?.declared !== undefined,
    profiled: declare && persona?.profile !== undefined,
    summary: report.summary,
    mustFailures: must,
    shouldFailures: should,
    errors: report.cases.filter((c) => c.verdict === 'error').map((c) => ({ caseId: c.id, reason: c.reason ?? '' })),
    skipped: report.cases.filter((c) => c.verdict === 'skip').map((c) => c.id),
    catching,
    collateral: persona?.kind === 'fault' ? unique([...must, ...should].map((a) => a.clause).filter((id) => !breaks.includes(id))) : [],
    ...(persona?.forExploration ? { forExploration: true } : {}),
    ...(filters ? { narrowed: true } : {}),
    durationMs: Math.round(performance.now() - started),
    outcomes: report.cases.map(caseOutcome),
    ...(persona?.options?.deleteRateLimit !== undefined ? { sweepThrottled: report.transport?.sweep?.throttled ?? 0 } : {}),
  };
}

/**
 * The persona run at the default concurrency and, when `both`, again at --concurrency 1: then the verdicts and
 * failing clauses of every case must be the same (serialDifferences lists where they are not). A fault runs first
 * with only the cases that cite a clause it breaks, as `rdx run --clause` would: a narrowed run that catches it is a
 * run of the harness catching it, at a fraction of the cost; one that does not (a global check's clause, judged on
 * every answer and declared by few cases; a fault that shows only beside other cases' records) runs again whole.
 */
export async function runPersonaBoth(persona: Persona | undefined, declare = false, both = true): Promise<PersonaRun> {
  const breaks = persona?.breaks ?? [];
  if (persona?.kind === 'fault' && breaks.length > 0) {
    const narrowed = await runAtBoth(persona, declare, both, { clauses: [...breaks] });
    if (problemsOf(narrowed).length === 0) return narrowed;
    const whole = await runAtBoth(persona, declare, both);
    return { ...whole, durationMs: whole.durationMs + narrowed.durationMs };
  }
  return runAtBoth(persona, declare, both);
}

async function runAtBoth(persona: Persona | undefined, declare: boolean, both: boolean, filters?: CaseFilters): Promise<PersonaRun> {
  const concurrent = await runPersona(persona, declare, undefined, filters);
  if (!both) return concurrent;
  const serial = await runPersona(persona, declare, 1, filters);
  const one = 'at --concurrency 1';
  const many = `at ${DEFAULT_CONCURRENCY}`;
  // A fault seen across cases (Persona.acrossCases): the same verdict, and caught both ways, is what can hold.
  const differences = persona?.acrossCases === undefined
    ? outcomeDifferences({ label: one, outcomes: serial.outcomes }, { label: many, outcomes: concurrent.outcomes })
    : [
      ...(serial.summary.verdict === concurrent.summary.verdict ? [] : [`the run's verdict: ${serial.summary.verdict} ${one}, ${concurrent.summary.verdict} ${many}`]),
      ...(serial.catching.length > 0 ? [] : [`not caught ${one}`]),
    ];
  return { ...concurrent, serialDifferences: differences, durationMs: concurrent.durationMs + serial.durationMs };
}

export interface PlannedRun {
  persona: Persona | undefined;
  declare: boolean;
  /** Why it also runs at --concurrency 1 (src/selfcheck/schedule.ts), or undefined: one run says all. */
  both: string | undefined;
}

/**
 * The runs the self-check makes: clean, each variant (and again with its declarations), each fault; those whose
 * answers may depend on the schedule at both concurrencies (`everyConcurrency`: every run at both).
 */
export function plannedRuns(personas: Persona[] = allPersonas(), everyConcurrency = false): PlannedRun[] {
  const variants = personas.filter((p) => p.kind === 'variant');
  const plan = (persona: Persona | undefined, declare: boolean): PlannedRun =>
    ({ persona, declare, both: everyConcurrency ? 'asked for (--every-concurrency)' : scheduleDependence(persona) });
  return [
    plan(undefined, false),
    ...variants.map((persona) => plan(persona, false)),
    ...variants.filter((p) => p.declared).map((persona) => plan(persona, true)),
    ...personas.filter((p) => p.kind === 'fault').map((persona) => plan(persona, false)),
  ];
}

/**
 * A run that mostly waits: its persona has a rate limit, which the harness waits out (40 to 100 s of a run). The pool
 * gives each such run a process of its own (RunPoolOptions.alone), so that its waits never hold a worker while runs
 * that need a core are queued.
 */
export const mostlyWaits = (persona: Persona | undefined): boolean => persona?.options?.rateLimit !== undefined;

export function score(runs: PersonaRun[]): SelfCheckResult['faults'] {
  const faults = runs.filter((r) => r.kind === 'fault');
  const caught = faults.filter((r) => r.catching.length > 0).length;
  const knownMisses = faults.filter((r) => r.name in KNOWN_MISSES).length;
  return { total: faults.length, caught, score: faults.length === 0 ? 1 : caught / faults.length, knownMisses };
}

export interface SelfCheckOptions {
  /** Called as each run ends, in the order planned. */
  onRun?: (run: PersonaRun) => void;
  /** Every run at both concurrencies, not only those whose answers may depend on the schedule. */
  everyConcurrency?: boolean;
  /** Runs side by side, each in a process of its own (default: selfCheckWorkers()); 1 runs them in this process. */
  workers?: number;
}

export async function selfCheck(personas: Persona[] = allPersonas(), options: SelfCheckOptions = {}): Promise<SelfCheckResult> {
  const pool = createRunPool<PersonaRun>(options.workers ?? selfCheckWorkers(), runPersonaBoth, { alone: mostlyWaits });
  try {
    // Every run is started at once (the pool runs as many side by side as it has workers) and reported in order.
    const pending = plannedRuns(personas, options.everyConcurrency).map(({ persona, declare, both }) => pool.run(persona, declare, both !== undefined));
    const runs: PersonaRun[] = [];
    for (const next of pending) {
      const run = await next;
      runs.push(run);
      options.onRun?.(run);
    }
    return { runs, faults: score(runs) };
  } finally {
    await pool.close();
  }
}

/** What is wrong with a run, one line each; nothing when the run is as it should be. */
export function problemsOf(run: PersonaRun): string[] {
  const label = `${run.name}${run.declared ? ' (declared)' : ''}`;
  const differences = (run.serialDifferences ?? []).map((d) => `${label}: not the same at both concurrencies: ${d}`);
  const sweep = run.sweepThrottled === 0 ? [`${label}: the end-of-run sweep met no throttled answer, so this run proves nothing about waiting in it`] : [];
  return [...differences, ...sweep, ...verdictProblems(run, label)];
}

function verdictProblems(run: PersonaRun, label: string): string[] {
  const errors = run.errors.map((e) => `${label}: case ${e.caseId} errored: ${e.reason}`);
  if (run.kind === 'fault') {
    const known = KNOWN_MISSES[run.name];
    if (known !== undefined) {
      return run.catching.length === 0 ? [] : [`${label}: caught now (by ${run.catching.slice(0, 3).join(', ')}): remove it from KNOWN_MISSES`];
    }
    if (run.forExploration && run.catching.length > 0 && !run.catching.some((id) => id.startsWith('explore.'))) {
      return [`${label}: caught by ${run.catching.slice(0, 3).join(', ')} but by no explore case, which it is made to show`];
    }
    return run.catching.length > 0 ? [] : [
      `${label}: not caught: no failed ${run.breaks.map((id) => `${clauseOf(id).level} ${id}`).join(' or ')} assertion` +
      ` (failed instead: ${run.collateral.join(', ') || 'nothing'})`,
    ];
  }
  const accused = run.mustFailures.map((a) => `${label}: false accusation: case ${a.caseId} failed MUST ${a.clause}: ${a.message}`);
  const warned = unexplainedWarnings(run).map((a) => `${label}: case ${a.caseId} failed SHOULD ${a.clause}: ${a.message}`);
  // A vendor that gives what its variant needs (id sources) gets a certificate: nothing may stay unjudged.
  const incomplete = run.profiled && run.summary.verdict !== 'CONFORMANT'
    ? [`${label}: ${run.summary.verdict} although the profile gives what the variant needs: ${run.summary.toComplete.map((t) => `${t.unlock} (${t.cases.length} case(s))`).join(', ') || 'see the report'}`]
    : [];
  return [...accused, ...errors, ...warned, ...incomplete];
}

export function problems(result: SelfCheckResult): string[] {
  return result.runs.flatMap(problemsOf);
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');
const firstThree = (ids: string[]): string => (ids.length === 0 ? '—' : `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` (+${ids.length - 3})` : ''}`);

/** The self-check as Markdown tables: the clean run and the variants, then the faults and the mutation score. */
export function formatTable(result: SelfCheckResult): string {
  const clean = result.runs.find((r) => r.kind === 'clean');
  const lines: string[] = [];
  lines.push('| Clean / variant | Declared | MUST failures | SHOULD warnings | Errors | Skipped | Verdict |');
  lines.push('|---|---|---:|---:|---:|---:|---|');
  for (const r of result.runs.filter((x) => x.kind !== 'fault')) {
    const extraSkips = clean ? r.skipped.filter((id) => !clean.skipped.includes(id)).length : 0;
    const ok = r.mustFailures.length === 0 && r.errors.length === 0 && unexplainedWarnings(r).length === 0;
    const warns = unique(r.shouldFailures.map((a) => a.clause));
    lines.push(`| ${r.name} | ${r.declared ? 'yes' : '—'} | ${r.mustFailures.length}${r.mustFailures.length ? ` (${cell(firstThree(unique(r.mustFailures.map((a) => a.caseId))))})` : ''} | ` +
      `${r.shouldFailures.length}${warns.length ? ` (${warns.join(', ')})` : ''} | ${r.errors.length} | ${r.skipped.length}${extraSkips ? ` (+${extraSkips})` : ''} | ${ok ? 'accepted' : 'ACCUSED'} |`);
  }
  lines.push('');
  lines.push('| Fault persona | Breaks | Catching cases | Also failed | Caught? |');
  lines.push('|---|---|---|---|---|');
  for (const r of result.runs.filter((x) => x.kind === 'fault')) {
    const breaks = r.breaks.map((id) => `${id} (${clauseOf(id).level})`).join(', ');
    const verdict = r.catching.length > 0 ? (r.narrowed ? 'yes (its cases only ran)' : 'yes') : r.name in KNOWN_MISSES ? 'no (known miss)' : 'NO';
    lines.push(`| ${r.name} | ${breaks} | ${cell(firstThree(r.catching))} | ${cell(r.collateral.slice(0, 4).join(', ') || '—')}${r.collateral.length > 4 ? ' …' : ''} | ${verdict} |`);
  }
  const { caught, total, score: ratio, knownMisses } = result.faults;
  const percent = (n: number): string => `${Math.floor(n * 1000) / 10}%`;
  lines.push('');
  lines.push(`Mutation score: ${caught}/${total} fault personas caught (${percent(ratio)}).`);
  if (knownMisses > 0) {
    lines.push(`Known misses: ${knownMisses}, each awaiting the suite change named in src/selfcheck/index.ts KNOWN_MISSES; ` +
      `the others: ${caught}/${total - knownMisses} caught (${percent(total === knownMisses ? 1 : caught / (total - knownMisses))}).`);
    for (const r of result.runs.filter((x) => x.kind === 'fault' && x.name in KNOWN_MISSES && x.catching.length === 0)) {
      lines.push(`- ${r.name}: ${KNOWN_MISSES[r.name]}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--only');
  const only = at >= 0 ? new Set((argv[at + 1] ?? '').split(',').filter(Boolean)) : undefined;
  const personas = allPersonas().filter((p) => !only || only.has(p.name));
  const workers = argv.indexOf('--workers');
  const result = await selfCheck(personas, {
    everyConcurrency: argv.includes('--every-concurrency'),
    ...(workers >= 0 ? { workers: Number(argv[workers + 1]) } : {}),
    onRun: (run) => process.stderr.write(`  ${run.name}${run.declared ? ' (declared)' : ''}: ${run.durationMs} ms${run.serialDifferences ? ' (both concurrencies)' : ''}\n`),
  });
  process.stdout.write(formatTable(result));
  const found = problems(result);
  for (const line of found) process.stdout.write(`PROBLEM ${line}\n`);
  return found.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runAsProgram(() => main(process.argv.slice(2)));
