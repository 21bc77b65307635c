// Reports for tests: a small report every reader accepts and a case to put in it (tests break one field at a time).
// Test tooling, not a test file: importing it runs no tests.
import type { CaseResult } from '../../src/core/results.js';
import type { RunReport } from '../../src/core/report.js';
import { summarise } from '../../src/core/verdict.js';

/** A small report of this format that every reader accepts; tests break one field of it at a time. */
export function minimalReport(cases: CaseResult[] = []): RunReport {
  return {
    format: 'rdx-report/1',
    harness: { name: 'rdx-conformance', version: '0.1.0' },
    spec: { hash: 'a'.repeat(64), clauses: 1, interpretations: 1 },
    run: {
      id: 'run-1', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z', durationMs: 60_000, seed: 1, runTag: 'rdxt',
      target: { baseUrl: 'http://127.0.0.1:1', embedded: false }, options: {},
    },
    summary: summarise(cases),
    cases,
    latency: {},
    implementationProfile: [],
    residue: [],
  };
}

export function minimalCase(over: Partial<CaseResult> = {}): CaseResult {
  return {
    id: 'a.case', title: 'a case', level: 'MUST', clauses: ['X.Y'], endpoints: [1], tags: [], tier: 'read-only', file: 'suites/a.yaml:1',
    verdict: 'pass', assertions: [], observations: [], exchanges: [], durationMs: 1, ...over,
  };
}
