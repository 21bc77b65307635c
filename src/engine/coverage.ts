// Traceability: which cases verify which clause, and which cases call which endpoint, from the loaded cases alone.
// A case verifies the clauses it names, the clauses its judged expectations and named checks judge, and — when it observes
// an open point under its plain id, the one form compared with a vendor's declaration — PROFILE.DECLARED_MATCHES.
// The clauses that global checks judge on every exchange are not counted: a clause is covered only by a case that
// sets out to verify it.
import { getCheck, globalChecks } from '../checks/index.js';
import { clauses as allClauses, interpretations, operations, type ClauseLevel, type Level } from '../spec/index.js';
import type { CaseDef } from './suite.js';
import type { Tier } from '../core/results.js';

export interface ClauseRow {
  id: string;
  level: ClauseLevel;
  family: string;
  title: string;
  endpoints: number[];
  /** Ids of the cases that verify the clause, in load order. */
  cases: string[];
  /** Endpoints of the clause that no case verifying it calls. */
  gaps: number[];
  /** A global check judges it on every exchange of every MUST and SHOULD case, named or not. */
  global: boolean;
}

export interface EndpointRow {
  endpoint: number;
  method: string;
  path: string;
  operationId: string;
  cases: string[];
  byLevel: Record<Level, number>;
}

export interface InterpretationRow {
  id: string;
  question: string;
  cases: string[];
}

export interface Coverage {
  cases: number;
  byLevel: Record<Level, number>;
  byTier: Record<Tier, number>;
  clauses: ClauseRow[];
  endpoints: EndpointRow[];
  interpretations: InterpretationRow[];
  /** Clause ids a case names or judges that are neither a clause nor, for an OBSERVE case, an interpretation. */
  unknown: { caseId: string; clause: string }[];
  summary: {
    clauses: Record<ClauseLevel, { covered: number; total: number }>;
    endpoints: { covered: number; total: number };
  };
}

const DECLARED = 'PROFILE.DECLARED_MATCHES';

/** Every clause or interpretation id a case verifies or observes, in the order first met. */
export function clausesOfCase(c: CaseDef): string[] {
  const out = new Set<string>(c.clauses);
  const declaredKeys = new Set(interpretations().filter((i) => i.key).map((i) => i.id));
  for (const step of c.steps) {
    // Expectations of setup steps and of OBSERVE cases are preconditions: unmet, the case is skipped, never judged.
    const judged = !step.setup && c.level !== 'OBSERVE';
    for (const e of judged ? [step.expect ?? []].flat() : []) {
      if (e.clause) out.add(e.clause);
      for (const spec of e.checks ?? []) {
        const id = typeof spec === 'string' ? spec : spec.id;
        // A check judges the clause it is given, else its own default: the first it declares.
        const clause = (typeof spec === 'string' ? undefined : spec.clause) ?? getCheck(id)?.clauses[0];
        if (clause) out.add(clause);
      }
    }
    for (const key of Object.keys(step.observe ?? {})) {
      const [id = key, sub] = key.split('.');
      out.add(id);
      if (!sub && declaredKeys.has(id)) out.add(DECLARED);
    }
  }
  return [...out];
}

const zeroLevels = (): Record<Level, number> => ({ MUST: 0, SHOULD: 0, OBSERVE: 0 });

export function computeCoverage(cases: CaseDef[]): Coverage {
  const clauseIds = new Set(allClauses().map((c) => c.id));
  const interpretationIds = new Set(interpretations().map((i) => i.id));
  const byClause = new Map<string, string[]>();
  const unknown: Coverage['unknown'] = [];
  for (const c of cases) {
    for (const id of clausesOfCase(c)) {
      if (clauseIds.has(id) || interpretationIds.has(id)) byClause.set(id, [...(byClause.get(id) ?? []), c.id]);
      else unknown.push({ caseId: c.id, clause: id });
    }
    // An OBSERVE case may name open points; a MUST or SHOULD case rests on clauses only.
    for (const id of c.clauses) {
      if (c.level !== 'OBSERVE' && interpretationIds.has(id) && !clauseIds.has(id)) unknown.push({ caseId: c.id, clause: id });
    }
  }
  const byId = new Map(cases.map((c) => [c.id, c]));
  const globalClauses = new Set(globalChecks().flatMap((k) => k.clauses));
  const clauses: ClauseRow[] = allClauses().map((k) => {
    const verifying = byClause.get(k.id) ?? [];
    const reached = new Set(verifying.flatMap((id) => byId.get(id)?.endpoints ?? []));
    return {
      id: k.id, level: k.level, family: k.family, title: k.title, endpoints: k.endpoints, cases: verifying,
      gaps: k.endpoints.filter((e) => !reached.has(e)), global: globalClauses.has(k.id),
    };
  });
  const endpoints: EndpointRow[] = operations().map((op) => {
    const calling = cases.filter((c) => c.endpoints.includes(op.endpoint));
    const byLevel = zeroLevels();
    for (const c of calling) byLevel[c.level] += 1;
    return { endpoint: op.endpoint, method: op.method, path: op.path, operationId: op.operationId, cases: calling.map((c) => c.id), byLevel };
  });
  const byLevel = zeroLevels();
  const byTier: Record<Tier, number> = { 'read-only': 0, reversible: 0, irreversible: 0 };
  for (const c of cases) {
    byLevel[c.level] += 1;
    byTier[c.tier] += 1;
  }
  const count = (level: ClauseLevel): { covered: number; total: number } => {
    const rows = clauses.filter((r) => r.level === level);
    return { covered: rows.filter((r) => r.cases.length > 0).length, total: rows.length };
  };
  return {
    cases: cases.length, byLevel, byTier, clauses, endpoints, unknown,
    interpretations: interpretations().map((i) => ({ id: i.id, question: i.question, cases: byClause.get(i.id) ?? [] })),
    summary: {
      clauses: { MUST: count('MUST'), SHOULD: count('SHOULD') },
      endpoints: { covered: endpoints.filter((e) => e.cases.length > 0).length, total: endpoints.length },
    },
  };
}

/**
 * Case ids shortened for reading: the copies an `each` made of one case (the same file and line) are written once
 * as `prefix.*` with their number when all of them are listed, and one by one otherwise.
 */
export function groupCaseIds(ids: string[], all: CaseDef[]): string[] {
  const siblings = new Map<string, string[]>();
  for (const c of all) siblings.set(`${c.file}:${c.line}`, [...(siblings.get(`${c.file}:${c.line}`) ?? []), c.id]);
  const origin = new Map(all.map((c) => [c.id, `${c.file}:${c.line}`]));
  const wanted = new Set(ids);
  const out: string[] = [];
  const done = new Set<string>();
  for (const id of ids) {
    const at = origin.get(id);
    const family = at ? siblings.get(at) ?? [id] : [id];
    if (family.length > 1 && family.every((x) => wanted.has(x))) {
      if (!at || done.has(at)) continue;
      done.add(at);
      out.push(`${commonPrefix(family)}.* (${family.length})`);
    } else out.push(id);
  }
  return out;
}

function commonPrefix(ids: string[]): string {
  const parts = ids.map((id) => id.split('.'));
  const first = parts[0] ?? [];
  let n = 0;
  while (n < first.length - 1 && parts.every((p) => p[n] === first[n])) n += 1;
  return first.slice(0, n).join('.');
}

const endpointsText = (e: number[]): string => (e.length === 21 ? 'all' : e.length === 20 && !e.includes(1) ? '2–21' : e.join(', '));

const levelLine = (cov: Coverage): string =>
  `${cov.cases} case(s): ${cov.byLevel.MUST} MUST, ${cov.byLevel.SHOULD} SHOULD, ${cov.byLevel.OBSERVE} OBSERVE; ` +
  `${cov.byTier['read-only']} read-only, ${cov.byTier.reversible} reversible, ${cov.byTier.irreversible} irreversible`;

export function summaryLine(cov: Coverage): string {
  const { MUST, SHOULD } = cov.summary.clauses;
  return `clauses covered: MUST ${MUST.covered}/${MUST.total}, SHOULD ${SHOULD.covered}/${SHOULD.total}; ` +
    `endpoints covered ${cov.summary.endpoints.covered}/${cov.summary.endpoints.total}`;
}

/** The console form of `rdx list --coverage`. */
export function renderCoverageText(cov: Coverage, cases: CaseDef[]): string {
  const lines: string[] = [];
  const idWidth = Math.max(...cov.clauses.map((c) => c.id.length));
  lines.push(`${'CLAUSE'.padEnd(idWidth)}  LEVEL   CASES  ${'NO CASE ON'.padEnd(18)}  VERIFIED BY`);
  for (const row of cov.clauses) {
    const by = groupCaseIds(row.cases, cases);
    const gaps = row.gaps.length === 0 ? '—' : row.global ? 'global check' : row.gaps.join(',');
    lines.push(`${row.id.padEnd(idWidth)}  ${row.level.padEnd(6)}  ${String(row.cases.length).padStart(5)}  ${gaps.padEnd(18)}  ${by.length ? by.slice(0, 3).join(', ') + (by.length > 3 ? `, … ${by.length - 3} more` : '') : 'NOT COVERED'}`);
  }
  lines.push('', ' #  METHOD  PATH                                      MUST  SHOULD  OBSERVE');
  for (const e of cov.endpoints) {
    lines.push(`${String(e.endpoint).padStart(2)}  ${e.method.padEnd(6)}  ${e.path.padEnd(40)}  ${String(e.byLevel.MUST).padStart(4)}  ${String(e.byLevel.SHOULD).padStart(6)}  ${String(e.byLevel.OBSERVE).padStart(7)}${e.cases.length ? '' : '  NOT COVERED'}`);
  }
  for (const u of cov.unknown) lines.push(`unknown clause ${u.clause} in case ${u.caseId}`);
  lines.push('', levelLine(cov), summaryLine(cov));
  return `${lines.join('\n')}\n`;
}

const gapText = (r: ClauseRow): string => (r.gaps.length === 0 ? '—' : `${r.gaps.join(', ')}${r.global ? ' (*global*)' : ''}`);

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** suites/COVERAGE.md: deterministic, so a test can tell when it is stale. */
export function renderCoverageMarkdown(cov: Coverage, cases: CaseDef[]): string {
  const { MUST, SHOULD } = cov.summary.clauses;
  const out: string[] = [
    '# Coverage',
    '',
    '<!-- Generated: do not edit. Regenerate with',
    '     npm run build && node dist/src/cli/main.js list --coverage --markdown > suites/COVERAGE.md',
    '     (src/engine/coverage.test.ts fails while this file is stale). -->',
    '',
    'Which cases verify each clause of `spec/clauses.yaml`, which cases call each of the 21 endpoints, and which cases',
    'observe each open point of `spec/interpretations.yaml`. A case verifies the clauses it names, those its expectations',
    'and named checks judge, and PROFILE.DECLARED_MATCHES when it observes an open point under its plain id. The',
    'envelope clauses that global checks judge on every exchange count only where a case names them.',
    'Copies that `each` made of one case are written `prefix.* (n)`.',
    '',
    '## Summary',
    '',
    '| | Covered | Total |',
    '|---|---:|---:|',
    `| MUST clauses | ${MUST.covered} | ${MUST.total} |`,
    `| SHOULD clauses | ${SHOULD.covered} | ${SHOULD.total} |`,
    `| Endpoints | ${cov.summary.endpoints.covered} | ${cov.summary.endpoints.total} |`,
    `| Open points observed | ${cov.interpretations.filter((i) => i.cases.length > 0).length} | ${cov.interpretations.length} |`,
    '',
    `${levelLine(cov)}.`,
    '',
    '## Clauses × cases',
    '',
    '"Endpoints without a case" lists the endpoints of a clause that no case verifying it calls; a clause that a global',
    'check judges is judged there all the same, on every exchange of every MUST and SHOULD case (marked *global*).',
    '',
    '| Clause | Level | Endpoints | Endpoints without a case | Cases | Verified by |',
    '|---|---|---|---|---:|---|',
    ...cov.clauses.map((r) => `| ${r.id} | ${r.level} | ${endpointsText(r.endpoints)} | ${gapText(r)} | ${r.cases.length} | ${r.cases.length ? cell(groupCaseIds(r.cases, cases).join(', ')) : '**not covered**'} |`),
    '',
    '## Endpoints × cases',
    '',
    '| # | Method | Path | MUST | SHOULD | OBSERVE | Cases |',
    '|---:|---|---|---:|---:|---:|---|',
    ...cov.endpoints.map((e) => `| ${e.endpoint} | ${e.method} | \`${e.path}\` | ${e.byLevel.MUST} | ${e.byLevel.SHOULD} | ${e.byLevel.OBSERVE} | ${e.cases.length ? cell(groupCaseIds(e.cases, cases).join(', ')) : '**not covered**'} |`),
    '',
    '## Open points × cases',
    '',
    '| Interpretation | Question | Observed by |',
    '|---|---|---|',
    ...cov.interpretations.map((i) => `| ${i.id} | ${cell(i.question)} | ${i.cases.length ? cell(groupCaseIds(i.cases, cases).join(', ')) : '—'} |`),
    '',
  ];
  if (cov.unknown.length) out.push('## Unknown clauses', '', ...cov.unknown.map((u) => `- ${u.caseId}: ${u.clause}`), '');
  return out.join('\n');
}
