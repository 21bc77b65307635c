// Known failures: a baseline lists case ids with a reason (and an optional expiry). They are reported but do not
// fail the run (its verdict is KNOWN_FAILURES, never CONFORMANT); an unexpected pass is reported; an entry naming
// no case, or still carrying the generated "TODO" reason, is an error, so baselines cannot rot or be rubber-stamped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse as parseYaml, stringify } from 'yaml';
import { UsageError } from '../errors.js';
import type { CaseResult } from '../core/results.js';
import type { BaselineOutcome } from '../core/report.js';

export interface BaselineEntry {
  id: string;
  reason: string;
  /** ISO date after which the entry no longer excuses the failure. */
  expires?: string;
}

export type { BaselineOutcome } from '../core/report.js';

/** The reason --update-baseline writes for a new entry; a baseline still carrying it excuses nothing. */
export const PLACEHOLDER = 'TODO';
const isPlaceholder = (reason: string): boolean => reason.trim().toUpperCase().startsWith(PLACEHOLDER);

export function readBaseline(file: string, knownIds: Set<string>): BaselineEntry[] {
  if (!existsSync(file)) throw new UsageError(`baseline ${file} does not exist (write one with --update-baseline)`, 'RDX_ERR_BASELINE');
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`baseline ${file}: ${(error as Error).message.split('\n')[0]}`, 'RDX_ERR_BASELINE');
  }
  const list = (doc as { knownFailures?: unknown } | null)?.knownFailures;
  if (!Array.isArray(list)) throw new UsageError(`baseline ${file}: expected a knownFailures list`, 'RDX_ERR_BASELINE');
  const problems: string[] = [];
  const entries = list.map((raw, i) => {
    const e = raw as Partial<BaselineEntry>;
    if (typeof e.id !== 'string') problems.push(`knownFailures[${i}].id: missing`);
    else if (!knownIds.has(e.id)) problems.push(`knownFailures[${i}].id: no case ${e.id} (stale entry: remove it)`);
    if (typeof e.reason !== 'string' || e.reason.trim() === '') problems.push(`knownFailures[${i}].reason: missing (say why it is known to fail)`);
    else if (isPlaceholder(e.reason)) {
      problems.push(`knownFailures[${i}].reason${typeof e.id === 'string' ? ` (${e.id})` : ''}: still the generated placeholder "${e.reason.slice(0, 40)}…": write why it is known to fail`);
    }
    if (e.expires !== undefined && Number.isNaN(Date.parse(String(e.expires)))) problems.push(`knownFailures[${i}].expires: not a date`);
    return { id: String(e.id), reason: String(e.reason), ...(e.expires !== undefined ? { expires: String(e.expires) } : {}) };
  });
  if (problems.length) throw new UsageError(`baseline ${file}:\n${problems.join('\n')}`, 'RDX_ERR_BASELINE');
  return entries;
}

/** Marks baselined failures on the results, and says what the baseline got wrong. */
export function applyBaseline(results: CaseResult[], entries: BaselineEntry[], now = new Date()): BaselineOutcome {
  const outcome: BaselineOutcome = { unexpectedPasses: [], expired: [] };
  const byId = new Map(results.map((r) => [r.id, r]));
  for (const entry of entries) {
    const r = byId.get(entry.id);
    if (!r) continue; // filtered out of this run
    if (entry.expires && Date.parse(entry.expires) < now.getTime()) {
      outcome.expired.push(entry.id);
      continue;
    }
    if (r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'error') {
      r.baseline = { reason: entry.reason, ...(entry.expires ? { expires: entry.expires } : {}) };
    } else if (r.verdict === 'pass') {
      outcome.unexpectedPasses.push(entry.id);
    }
  }
  return outcome;
}

/** Writes the run's current failures as a baseline, keeping the reasons of entries that still fail. */
export function writeBaseline(file: string, results: CaseResult[], previous: BaselineEntry[] = []): number {
  const reasons = new Map(previous.map((e) => [e.id, e]));
  const failing = results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'error');
  const knownFailures = failing.map((r) => {
    const old = reasons.get(r.id);
    const first = r.assertions.find((a) => !a.passed);
    return {
      id: r.id,
      reason: old?.reason ?? `${PLACEHOLDER}: why is this known to fail? (${first ? `${first.clause}: ${first.message}` : r.reason ?? r.verdict})`,
      ...(old?.expires ? { expires: old.expires } : {}),
    };
  });
  writeFileSync(file, `# rdx baseline: known failures reported without failing the run. Give every entry a reason.\n${stringify({ knownFailures })}`);
  return knownFailures.length;
}
