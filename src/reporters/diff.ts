// rdx diff: what changed between two runs (report.json files or certification bundles), so a pull request or a
// deployment shows "what broke since the last green run" instead of two full reports. Case by case (newly failing,
// newly passing, newly unjudged or gone), clause by clause, open point by open point, and the target's latency.
// Each run's verdict is read from its report (summary.verdict), never derived here.
import { UsageError } from '../errors.js';
import type { CaseResult } from '../core/results.js';
import { isProblemVerdict, shownVerdict } from '../core/case-view.js';
import { readReportFile, type EndpointLatency, type FailOn, type Latency, type RunReport as Report, type RunVerdict } from '../core/report.js';
import { VERDICT_WORDS } from '../core/verdict.js';
import { operations } from '../spec/index.js';
import { isGzipFile, readBundleFile, verifyBundle } from './bundle.js';

/** A p95 at least this many times the old one, and this many ms more, is worth a line (one run is noisy). */
export const SLOWER_RATIO = 2;
export const SLOWER_MS = 100;

export interface RunRef {
  file: string;
  runId: string;
  startedAt: string;
  harness: string;
  specHash: string;
  target: string;
  verdict: RunVerdict;
}

export interface CaseChange {
  id: string;
  level: string;
  title: string;
  /** The verdict as the report shows it (known-failure for a baselined case); null when the case was not in that run. */
  old: string | null;
  new: string | null;
  /** Clauses broken in the run that failed (the new one for a failure, the old one for a fix). */
  clauses: string[];
  /** The first finding (MUST first), or the reason a case was not judged. */
  finding?: string;
}

export type ClauseState = 'broken' | 'warned' | 'known' | 'held' | 'unjudged';

export interface ClauseChange {
  clause: string;
  old: ClauseState | null;
  new: ClauseState | null;
  /** The cases that break it now (or broke it before, when it is fixed). */
  cases: string[];
}

export interface ObservationChange {
  interpretation: string;
  key?: string;
  /** Distinct values seen, as JSON text. */
  old: string[];
  new: string[];
}

export interface LatencyChange {
  endpoint: number;
  operation: string;
  old?: EndpointLatency;
  new?: EndpointLatency;
  /** new p95 / old p95, when both ran. */
  p95Ratio?: number;
  /** p95 at least SLOWER_RATIO times and SLOWER_MS ms above the old one. */
  slower: boolean;
}

export interface ReportDiff {
  format: 'rdx-diff/1';
  old: RunRef;
  new: RunRef;
  /** Why the comparison may mislead (another spec, harness version or target). */
  notes: string[];
  newlyFailing: CaseChange[];
  newlyPassing: CaseChange[];
  /** Cases judged in the old run and skipped or absent (new: null) in the new one. */
  newlyUnjudged: CaseChange[];
  /** Any other change of verdict (a skip now judged, a failure now an error, …). */
  otherChanges: CaseChange[];
  added: string[];
  removed: string[];
  clauses: ClauseChange[];
  observations: ObservationChange[];
  latency: LatencyChange[];
  /** What fails the comparison: "should" makes a newly warning SHOULD case a regression too (rdx diff --fail-on). */
  failOn: FailOn;
  /** The new run's verdict is worse than the old one's (CONFORMANT → KNOWN_FAILURES → INCOMPLETE → NOT_CONFORMANT). */
  verdictWorse: boolean;
  /**
   * What --fail-on-regression counts: MUST cases newly failing or erring, MUST cases judged before and now unjudged
   * or absent, under --fail-on should SHOULD cases newly warning or newly unjudged or absent, and one for a worse verdict.
   */
  regressions: number;
}

/** Worse last, as src/core/verdict.ts weighs them: a failure outweighs a gap, a gap outweighs an excused failure. */
const VERDICT_ORDER: RunVerdict[] = ['CONFORMANT', 'KNOWN_FAILURES', 'INCOMPLETE', 'NOT_CONFORMANT'];

const MUST_PROBLEM = new Set(['fail', 'error']);

/**
 * Reads a report.json, or the report.json of a bundle whose every hash holds; either is checked as every report read
 * from disk is (src/core/report.ts). Problems name the file.
 */
export function readRun(file: string): Report {
  if (!isGzipFile(file)) return readReportFile(file);
  const checked = verifyBundle(readBundleFile(file));
  if (checked.status === 'malformed') throw new UsageError(`${file}: malformed bundle: ${checked.problem}`, 'RDX_ERR_BUNDLE');
  if (checked.status === 'mismatch') throw new UsageError(`${file}: the bundle does not match its manifest (${checked.problems.join('; ')}); rdx verify ${file} says more`, 'RDX_ERR_BUNDLE');
  if (!checked.report) throw new UsageError(`${file}: the bundle has no report.json`, 'RDX_ERR_BUNDLE');
  return checked.report;
}

function ref(file: string, r: Report): RunRef {
  return {
    file, runId: r.run.id, startedAt: r.run.startedAt, harness: r.harness.version, specHash: r.spec.hash,
    target: r.run.target.baseUrl, verdict: r.summary.verdict,
  };
}

function brokenClauses(c: CaseResult): string[] {
  return [...new Set(c.assertions.filter((a) => !a.passed).map((a) => a.clause))];
}

function finding(c: CaseResult): string | undefined {
  const failed = c.assertions.filter((a) => !a.passed);
  const first = failed.find((a) => a.level === 'MUST') ?? failed[0];
  return first ? `${first.clause}: ${first.message}` : c.reason;
}

/** Each clause's state in a run (broken beats warned beats known beats held beats unjudged) and the cases behind it. */
function clauseStates(report: Report): Map<string, { state: ClauseState; cases: string[] }> {
  const order: ClauseState[] = ['unjudged', 'held', 'known', 'warned', 'broken'];
  const seen = new Map<string, Map<ClauseState, Set<string>>>();
  const mark = (clause: string, state: ClauseState, caseId: string): void => {
    const byState = seen.get(clause) ?? new Map<ClauseState, Set<string>>();
    byState.set(state, (byState.get(state) ?? new Set()).add(caseId));
    seen.set(clause, byState);
  };
  for (const c of report.cases) {
    for (const clause of c.clauses) mark(clause, 'unjudged', c.id);
    for (const a of c.assertions) mark(a.clause, a.passed ? 'held' : c.baseline ? 'known' : a.level === 'MUST' ? 'broken' : 'warned', c.id);
  }
  const states = new Map<string, { state: ClauseState; cases: string[] }>();
  for (const [clause, byState] of seen) {
    const state = order.filter((s) => byState.has(s)).at(-1) as ClauseState;
    // The cases that broke it are worth naming; the hundred that held it are not.
    states.set(clause, { state, cases: state === 'held' || state === 'unjudged' ? [] : [...(byState.get(state) ?? [])] });
  }
  return states;
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;
const GENERATED_KEY = /^(id|.*_id|reference|.*_reference|created_at|updated_at|.*_at)$/;

/**
 * An observed value with what the run generated put aside: the run tag each run puts into the values it makes
 * (references, names), timestamps, and the ids and references a target echoes back. Two runs of the same target
 * differ in those every time; that is no change of the implementation.
 */
export function stableValue(value: unknown, runTag: string): unknown {
  // A generated value is the run tag and what follows it ("rdxa1b2c3-4-JO": the tag, a counter, a suffix).
  if (typeof value === 'string') return (runTag ? value.replace(new RegExp(`${runTag.replace(/[^\w]/g, '\\$&')}[\\w-]*`, 'g'), '<generated>') : value).replace(ISO_TIME, '<time>');
  if (Array.isArray(value)) return value.map((v) => stableValue(v, runTag));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k,
      GENERATED_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') ? '<generated>' : stableValue(v, runTag)]));
  }
  return value;
}

function observed(report: Report): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  for (const p of report.implementationProfile) {
    for (const o of p.observed) {
      const key = JSON.stringify([p.id, o.key ?? null]);
      seen.set(key, (seen.get(key) ?? new Set()).add(JSON.stringify(stableValue(o.value, report.run.runTag))));
    }
  }
  return seen;
}

/** A case judged in a run: it ran and got a verdict (a known failure was judged too); a skip was not. */
const judged = (verdict: string | null): boolean => verdict !== null && verdict !== 'skip';

export function diffReports(oldFile: string, oldReport: Report, newFile: string, newReport: Report, options: { failOn?: FailOn } = {}): ReportDiff {
  const before = new Map(oldReport.cases.map((c) => [c.id, c]));
  const after = new Map(newReport.cases.map((c) => [c.id, c]));
  const notes: string[] = [];
  if (oldReport.spec.hash !== newReport.spec.hash) notes.push(`The runs were judged against different specs (${oldReport.spec.hash.slice(0, 12)} → ${newReport.spec.hash.slice(0, 12)}): a change may come from the spec, not the implementation.`);
  if (oldReport.harness.version !== newReport.harness.version) notes.push(`The runs come from different harness versions (${oldReport.harness.version} → ${newReport.harness.version}): a newer harness may judge more.`);
  const embedded = oldReport.run.target.embedded && newReport.run.target.embedded;
  if (!embedded && oldReport.run.target.baseUrl !== newReport.run.target.baseUrl) notes.push(`The runs judged different targets (${oldReport.run.target.baseUrl} → ${newReport.run.target.baseUrl}).`);

  const diff: ReportDiff = {
    format: 'rdx-diff/1', old: ref(oldFile, oldReport), new: ref(newFile, newReport), notes,
    newlyFailing: [], newlyPassing: [], newlyUnjudged: [], otherChanges: [], added: [], removed: [],
    clauses: [], observations: [], latency: [],
    failOn: options.failOn ?? newReport.summary.failOn,
    verdictWorse: VERDICT_ORDER.indexOf(newReport.summary.verdict) > VERDICT_ORDER.indexOf(oldReport.summary.verdict),
    regressions: 0,
  };

  for (const [id, was] of before) {
    if (after.has(id)) continue;
    diff.removed.push(id);
    // Gone from the new run: what the old run judged is no longer proven.
    if (judged(shownVerdict(was))) {
      diff.newlyUnjudged.push({
        id, level: was.level, title: was.title, old: shownVerdict(was), new: null, clauses: [],
        finding: 'not in the new run (filtered out, in a missing shard, or no longer in the suites)',
      });
    }
  }
  for (const [id, c] of after) {
    const was = before.get(id);
    if (!was) diff.added.push(id);
    const o = was ? shownVerdict(was) : null;
    const n = shownVerdict(c);
    if (o === n) continue;
    const change = (source: CaseResult): CaseChange => ({
      id, level: c.level, title: c.title, old: o, new: n, clauses: brokenClauses(source),
      ...(finding(source) !== undefined ? { finding: finding(source) as string } : {}),
    });
    if ((MUST_PROBLEM.has(n) && !MUST_PROBLEM.has(o ?? '')) || (n === 'warn' && !isProblemVerdict(o ?? ''))) diff.newlyFailing.push(change(c));
    else if ((n === 'pass' || n === 'observed') && was && (isProblemVerdict(o ?? '') || o === 'known-failure')) diff.newlyPassing.push(change(was));
    else if (n === 'skip' && judged(o)) diff.newlyUnjudged.push(change(c));
    else if (was) diff.otherChanges.push(change(c));
  }
  diff.regressions = diff.newlyFailing.filter((c) => MUST_PROBLEM.has(c.new ?? '') || (diff.failOn === 'should' && c.new === 'warn')).length
    + diff.newlyUnjudged.filter((c) => unjudgedCounts(c, diff.failOn)).length
    + (diff.verdictWorse ? 1 : 0);

  const oldClauses = clauseStates(oldReport);
  const newClauses = clauseStates(newReport);
  for (const clause of [...new Set([...oldClauses.keys(), ...newClauses.keys()])].sort()) {
    const o = oldClauses.get(clause);
    const n = newClauses.get(clause);
    if (o?.state === n?.state) continue;
    diff.clauses.push({ clause, old: o?.state ?? null, new: n?.state ?? null, cases: n?.cases.length ? n.cases : o?.cases ?? [] });
  }

  const oldSeen = observed(oldReport);
  const newSeen = observed(newReport);
  for (const key of [...new Set([...oldSeen.keys(), ...newSeen.keys()])].sort()) {
    const o = [...(oldSeen.get(key) ?? [])].sort();
    const n = [...(newSeen.get(key) ?? [])].sort();
    if (JSON.stringify(o) === JSON.stringify(n)) continue;
    const [interpretation, sub] = JSON.parse(key) as [string, string | null];
    diff.observations.push({ interpretation, ...(sub !== null ? { key: sub } : {}), old: o, new: n });
  }

  const oldLatency: Latency = oldReport.latency;
  const newLatency: Latency = newReport.latency;
  for (const op of operations()) {
    const o = oldLatency[String(op.endpoint)];
    const n = newLatency[String(op.endpoint)];
    if (!o && !n) continue;
    const ratio = o && n && o.p95Ms > 0 ? Math.round((n.p95Ms / o.p95Ms) * 100) / 100 : undefined;
    diff.latency.push({
      endpoint: op.endpoint, operation: `${op.method} ${op.path}`,
      ...(o ? { old: o } : {}), ...(n ? { new: n } : {}), ...(ratio !== undefined ? { p95Ratio: ratio } : {}),
      slower: !!(o && n && n.p95Ms >= o.p95Ms * SLOWER_RATIO && n.p95Ms - o.p95Ms >= SLOWER_MS),
    });
  }
  return diff;
}

const CHANGE_LISTS = [
  ['newlyFailing', 'Newly failing'],
  ['newlyUnjudged', 'Newly unjudged'],
  ['newlyPassing', 'Newly passing'],
  ['otherChanges', 'Other verdict changes'],
] as const;

const CLAUSE_WORDS: Record<ClauseState, string> = { broken: 'broken (MUST)', warned: 'broken (SHOULD)', known: 'known failure', held: 'held', unjudged: 'not judged' };
// eslint-disable-next-line no-control-regex -- what a job page must not receive from a report
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const ms = (n: number | undefined): string => (n === undefined ? '–' : `${n} ms`);
const verdictWord = (v: string | null): string => (v === null ? 'absent' : v.toUpperCase());

/** The console text. `line` makes target text safe for a terminal and one line long (see console.ts). */
export function diffText(d: ReportDiff, line: (text: string) => string): string {
  const out: string[] = [];
  out.push(`rdx diff: ${d.old.file} (run ${d.old.runId}) → ${d.new.file} (run ${d.new.runId})`);
  out.push(`Verdict: ${VERDICT_WORDS[d.old.verdict]} → ${VERDICT_WORDS[d.new.verdict]}`);
  for (const n of d.notes) out.push(`Note: ${n}`);
  for (const [key, title] of CHANGE_LISTS) {
    const list = d[key];
    if (!list.length) continue;
    out.push('', `${title} (${list.length}):`);
    for (const c of list) {
      out.push(`  ${verdictWord(c.old).padEnd(13)} → ${verdictWord(c.new).padEnd(13)} [${c.level}] ${c.id}${c.finding ? `  ${line(c.finding)}` : ''}`);
    }
  }
  if (d.added.length || d.removed.length) out.push('', `Cases: ${d.added.length} new in this run, ${d.removed.length} no longer run${d.removed.length ? ` (${d.removed.slice(0, 10).join(', ')}${d.removed.length > 10 ? ', …' : ''})` : ''}`);
  if (d.clauses.length) {
    out.push('', `Clauses (${d.clauses.length} changed):`);
    for (const c of d.clauses) out.push(`  ${c.clause.padEnd(34)} ${c.old ? CLAUSE_WORDS[c.old] : 'absent'} → ${c.new ? CLAUSE_WORDS[c.new] : 'absent'}${c.cases.length ? `  (${c.cases.length} case${c.cases.length === 1 ? '' : 's'}: ${c.cases.slice(0, 3).join(', ')}${c.cases.length > 3 ? ', …' : ''})` : ''}`);
  }
  if (d.observations.length) {
    out.push('', `Open points observed differently (${d.observations.length}):`);
    for (const o of d.observations) out.push(`  ${o.interpretation}${o.key ? `.${o.key}` : ''}: ${line(o.old.join(', ') || '(not observed)')} → ${line(o.new.join(', ') || '(not observed)')}`);
  }
  const slower = d.latency.filter((l) => l.slower);
  out.push('', slower.length
    ? `Slower endpoints (p95 at least ${SLOWER_RATIO}× and ${SLOWER_MS} ms more; one conformance run, not a load test):`
    : `Latency: no endpoint's p95 grew ${SLOWER_RATIO}× and by ${SLOWER_MS} ms or more (one conformance run, not a load test).`);
  for (const l of slower) out.push(`  ${String(l.endpoint).padStart(2)} ${l.operation.padEnd(46)} p95 ${ms(l.old?.p95Ms)} → ${ms(l.new?.p95Ms)} (×${l.p95Ratio})`);
  out.push('', d.regressions ? `Regressions: ${regressionWords(d)}` : 'Regressions: none');
  return `${out.join('\n')}\n`;
}

/** "3 (2 MUST cases newly failing, 1 no longer judged, the verdict got worse)": the count and what makes it. */
/**
 * A case judged before and unjudged or absent now is a regression at MUST and, under --fail-on should, at SHOULD too:
 * the SHOULD cases that rule gates on are as unproven when they no longer run as when they warn.
 */
function unjudgedCounts(c: CaseChange, failOn: FailOn): boolean {
  return c.level === 'MUST' || (failOn === 'should' && c.level === 'SHOULD');
}

export function regressionWords(d: ReportDiff): string {
  const failing = d.newlyFailing.filter((c) => MUST_PROBLEM.has(c.new ?? '')).length;
  const warning = d.failOn === 'should' ? d.newlyFailing.filter((c) => c.new === 'warn').length : 0;
  const unjudged = d.newlyUnjudged.filter((c) => c.level === 'MUST').length;
  const shouldUnjudged = d.newlyUnjudged.filter((c) => c.level === 'SHOULD' && unjudgedCounts(c, d.failOn)).length;
  const parts = [
    ...(failing ? [`${failing} MUST case(s) newly failing`] : []),
    ...(unjudged ? [`${unjudged} MUST case(s) judged before and now not judged or absent`] : []),
    ...(shouldUnjudged ? [`${shouldUnjudged} SHOULD case(s) judged before and now not judged or absent (--fail-on should)`] : []),
    ...(warning ? [`${warning} SHOULD case(s) newly warning (--fail-on should)`] : []),
    ...(d.verdictWorse ? [`the verdict got worse (${VERDICT_WORDS[d.old.verdict]} → ${VERDICT_WORDS[d.new.verdict]})`] : []),
  ];
  return `${d.regressions} (${parts.join(', ')})`;
}

/** Markdown for a pull-request comment or a job summary. Target text is put in code spans that cannot break out. */
export function diffMarkdown(d: ReportDiff): string {
  // Controls and invisible marks dropped, `@` made full-width (no mention), pipes and HTML escaped.
  const cell = (text: string): string => String(text).replace(INVISIBLE, ' ').replace(/\s+/g, ' ').slice(0, 300).replace(/\|/g, '\\|')
    .replace(/[<>&]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[ch] as string).replace(/@/g, '\uff20');
  const code = (text: string): string => {
    // A code span fenced by more backticks than it contains; HTML-escaped so a table cell stays a cell.
    const flat = cell(text);
    const fence = '`'.repeat(Math.max(0, ...(flat.match(/`+/g) ?? []).map((m) => m.length)) + 1);
    return `${fence} ${flat} ${fence}`;
  };
  const out: string[] = [];
  const headline = d.regressions ? `${d.regressions} regression${d.regressions === 1 ? '' : 's'}` : 'no regression';
  const why = d.regressions ? [`Regressions: ${regressionWords(d)}`, ''] : [];
  out.push(`### RDX conformance diff: ${VERDICT_WORDS[d.old.verdict]} → ${VERDICT_WORDS[d.new.verdict]} (${headline})`, '');
  out.push(`Old run ${code(d.old.runId)} (harness ${cell(d.old.harness)}, spec ${code(d.old.specHash.slice(0, 12))}) → new run ${code(d.new.runId)} (harness ${cell(d.new.harness)}, spec ${code(d.new.specHash.slice(0, 12))})`, '');
  for (const n of d.notes) out.push(`> **Note:** ${cell(n)}`, '');
  out.push(...why);
  const counts = CHANGE_LISTS.map(([key, title]) => `${title.toLowerCase()}: ${d[key].length}`).join(' · ');
  out.push(counts, '');
  for (const [key, title] of CHANGE_LISTS) {
    const list = d[key];
    if (!list.length) continue;
    out.push(`#### ${title} (${list.length})`, '', '| Case | Level | Was | Now | Clauses | Finding |', '|---|---|---|---|---|---|');
    for (const c of list) out.push(`| ${code(c.id)} | ${cell(c.level)} | ${verdictWord(c.old)} | ${verdictWord(c.new)} | ${cell(c.clauses.join(', '))} | ${c.finding ? code(c.finding) : ''} |`);
    out.push('');
  }
  if (d.clauses.length) {
    out.push(`#### Clauses (${d.clauses.length} changed)`, '', '| Clause | Was | Now | Cases |', '|---|---|---|---|');
    for (const c of d.clauses) out.push(`| ${cell(c.clause)} | ${c.old ? CLAUSE_WORDS[c.old] : 'absent'} | ${c.new ? CLAUSE_WORDS[c.new] : 'absent'} | ${cell(c.cases.slice(0, 5).join(', '))}${c.cases.length > 5 ? ` and ${c.cases.length - 5} more` : ''} |`);
    out.push('');
  }
  if (d.observations.length) {
    out.push(`#### Open points observed differently (${d.observations.length})`, '', '| Open point | Was | Now |', '|---|---|---|');
    for (const o of d.observations) out.push(`| ${cell(`${o.interpretation}${o.key ? `.${o.key}` : ''}`)} | ${o.old.length ? code(o.old.join(', ')) : '–'} | ${o.new.length ? code(o.new.join(', ')) : '–'} |`);
    out.push('');
  }
  const slower = d.latency.filter((l) => l.slower);
  out.push('#### Latency', '', `The target's answer times during each run, per endpoint. One conformance run sends requests one at a time: this is not a load test. ${slower.length ? `${slower.length} endpoint(s) got slower (p95 at least ${SLOWER_RATIO}× and ${SLOWER_MS} ms more).` : 'No endpoint got markedly slower.'}`, '');
  const shownLatency = slower.length ? slower : [];
  if (shownLatency.length) {
    out.push('| # | Operation | p50 | p95 | max |', '|---|---|---|---|---|');
    for (const l of shownLatency) out.push(`| ${l.endpoint} | \`${l.operation}\` | ${ms(l.old?.p50Ms)} → ${ms(l.new?.p50Ms)} | ${ms(l.old?.p95Ms)} → ${ms(l.new?.p95Ms)} | ${ms(l.old?.maxMs)} → ${ms(l.new?.maxMs)} |`);
    out.push('');
  }
  if (d.added.length || d.removed.length) out.push(`${d.added.length} case(s) new in this run, ${d.removed.length} no longer run.`, '');
  return `${out.join('\n')}\n`;
}
