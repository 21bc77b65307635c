// The report contract: what a run writes once (report.json) and what every output reads. The engine fills it
// (src/engine/run.ts), the verdict and its facts come from one function (summarise, src/core/verdict.ts), and every
// reader (the reporters, rdx report/diff/badge/verify, the dashboard, examples/job-summary.mjs) only reads them.
// docs/reports.md describes the file; docs/verdicts.md the verdict. A report read back from disk (rdx report, diff,
// badge, verify) is a file anyone may have written: readReportFile / parseReport below check its size, its depth and
// its shape against REPORT_SCHEMA before any reader touches it.
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { ResidueSummary } from './residue.js';
import type { CaseResult, Observation, ResidueEntry, Unlock } from './results.js';
import { jsonScan } from './json-scan.js';
import { RUN_VERDICTS, type RunVerdict } from './case-view.js';
import type { ToComplete } from './unlocks.js';
import { utf8Text } from './utf8.js';

export type { ResidueSummary } from './residue.js';

/** The one format this harness writes and reads; a report of any other is refused (exit 2). */
export const REPORT_FORMAT = 'rdx-report/1';

export { RUN_VERDICTS, type RunVerdict } from './case-view.js';

/** What fails the run: MUST failures only (the default), or SHOULD warnings too (--fail-on should). */
export type FailOn = 'must' | 'should';

export type { ToComplete } from './unlocks.js';

/** A MUST case the run did not judge although it was meant to (filtered out, or in a shard that is missing). */
export interface NotRun {
  id: string;
  unlock: Unlock;
}

/** Why a run stopped before its last case: the reason of every case it did not run starts "not run (<reason>)". */
export type StopReason = 'deadline' | 'interrupted';

export interface InterpretationProfile {
  id: string;
  question: string;
  key: string | null;
  declared?: unknown;
  observed: Omit<Observation, 'interpretation'>[];
}

export interface EndpointLatency {
  /** Answers timed. */
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** Keyed by the endpoint number of the spec (1 = POST /oauth2/token … 21 = PUT /users). */
export type Latency = Record<string, EndpointLatency>;

export interface BaselineOutcome {
  /** Entries whose case passed: the known failure is fixed, remove the entry. */
  unexpectedPasses: string[];
  /** Entries past their expiry: their failures count again. */
  expired: string[];
}

/** The counts and the verdict of a run: written by summarise() only. */
export interface Summary {
  total: number;
  byVerdict: Record<string, number>;
  byLevel: Record<string, Record<string, number>>;
  mustFailures: number;
  errors: number;
  /** The run's verdict: CONFORMANT only when every MUST case was judged and passed. */
  verdict: RunVerdict;
  /** True only for CONFORMANT. */
  conformant: boolean;
  /** MUST cases not judged: skipped, or meant to run and left out (filters, a missing shard, --bail). */
  unjudgedMust: number;
  /** "To complete this certification": what lets each unjudged MUST case run, with the id of every one. */
  toComplete: ToComplete[];
  /** Failed SHOULD assertions' cases (warn), baseline entries aside. */
  shouldWarnings: number;
  /** Failed cases excused by the baseline. */
  knownFailures: number;
  failOn: FailOn;
}

/** A report made of several: which runs it came from (the run fields of the merged report are the first's). */
export interface MergedFrom {
  file: string;
  runId: string;
  runTag: string;
  seed: number;
  startedAt: string;
  cases: number;
  shard?: string;
}

/** Who signs the bundle of this run: the SHA-256 fingerprint of the Ed25519 public key (rdx run --sign-key). */
export interface Signer {
  algorithm: 'Ed25519';
  /** "SHA256:" and the hex SHA-256 of the public key's DER (SPKI) bytes. */
  fingerprint: string;
}

export interface RunReport {
  format: typeof REPORT_FORMAT;
  harness: { name: 'rdx-conformance'; version: string };
  spec: { hash: string; clauses: number; interpretations: number };
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    durationMs: number;
    seed: number;
    runTag: string;
    /** How many cases could run side by side (rdx run --concurrency); absent in reports of harnesses before it. */
    concurrency?: number;
    /** The run's time limit in ms: --deadline, else the default (an hour); absent in reports of harnesses before it. */
    deadlineMs?: number;
    target: { baseUrl: string; embedded: boolean; image?: string };
    options: Record<string, unknown>;
    /** Present when the run was stopped early: the report holds every case, those not run as skip. */
    stopped?: { reason: StopReason; at: string; notRun: number };
    /** Present when its bundle is signed: the key that signs it. */
    signer?: Signer;
  };
  summary: Summary;
  cases: CaseResult[];
  /** How fast the target answered, per endpoint, during this run (not a load test: see src/engine/latency.ts). */
  latency: Latency;
  implementationProfile: InterpretationProfile[];
  residue: ResidueEntry[];
  /** How many records the run left on the target, per resource, and why (residueSummary(), src/core/residue.ts). */
  residueSummary?: ResidueSummary;
  baseline?: { file: string; entries: number } & BaselineOutcome;
  /** A merged report (rdx report): the runs it was made of. */
  mergedFrom?: MergedFrom[];
  /** The shards of the run that were not given to the merge ("3/3"); their MUST cases are unjudged. */
  missingShards?: string[];
  /**
   * What the run met from a rate-limiting target: throttled answers (429, 503 with Retry-After) per endpoint number,
   * the time waited after them and the time held to the client-side pace.
   */
  transport?: TransportStats;
}

/** What the run met from a rate-limiting target, for the report (RunReport.transport). */
export interface TransportStats {
  /** Throttled answers (429, 503 with Retry-After), per endpoint of the spec ("other" for the rest). */
  throttled: Record<string, number>;
  /** Time spent waiting after throttled answers (Retry-After or backoff), in ms. */
  waitedMs: number;
  /** Time spent holding requests to the client-side pace (--rate, adaptive slowing), in ms. */
  pacedMs: number;
  /** Requests given up after too many throttled answers or the run's wait budget. */
  gaveUp: number;
  /** The pace the run ended at, in requests per second, when one held it. */
  rateLimit?: number;
  /**
   * The end-of-run sweep (docs/residue.md): records it sent a DELETE for, those deleted, the throttled answers it
   * met (counted in `throttled` too). Absent when the run was stopped before it.
   */
  sweep?: { records: number; deleted: number; throttled: number };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a report back. The file is untrusted: a crafted report.json must be refused with the file and the JSON
// path of what is wrong (exit 2), never crash a reader, exhaust memory or pollute a prototype.

/** Far above a real report (the run keeps bodies whole up to 16 MiB); a larger file is refused unread. */
export const MAX_REPORT_BYTES = 128 * 2 ** 20;
/** About what the parsed report may take in memory (see jsonScan); 60 KB of empty objects take 1.3 MB parsed. */
export const MAX_REPORT_PARSED_BYTES = 256 * 2 ** 20;
/** Bodies are kept at most 1,000 levels deep (MAX_JSON_DEPTH of the HTTP client), a few levels into the report. */
export const MAX_REPORT_DEPTH = 1_100;
/**
 * All the reports one command reads (rdx report merging shards), together, once parsed: six object-heavy reports of
 * 8.7 MB each ran out of a 1 GiB heap; past this the command refuses before parsing, saying what to do.
 */
export const MAX_REPORTS_PARSED_BYTES = 384 * 2 ** 20;
/** The most shards a run can be cut into (rdx run --shard i/n); a merge plans every missing one. */
export const MAX_SHARDS = 1_000;
/** How many problems one refusal lists. */
const MAX_PROBLEMS = 5;

/**
 * A small schema language for the report's shape: what every reader relies on is checked (types, enums, bounds),
 * members the readers do not use are left alone, and values the report keeps as the target sent them (`any`) are
 * never walked.
 */
type Schema =
  | { t: 'string'; enum?: readonly string[]; check?: (v: string) => string | undefined }
  | { t: 'number'; int?: boolean; min?: number; max?: number }
  | { t: 'boolean' }
  | { t: 'null' }
  | { t: 'any' }
  | { t: 'array'; items: Schema }
  | { t: 'object'; required: Record<string, Schema>; optional?: Record<string, Schema> }
  | { t: 'map'; values: Schema }
  | { t: 'either'; of: Schema[]; what: string };

const str: Schema = { t: 'string' };
const oneOf = (values: readonly string[]): Schema => ({ t: 'string', enum: values });
const num: Schema = { t: 'number' };
const count: Schema = { t: 'number', int: true, min: 0 };
const bool: Schema = { t: 'boolean' };
const any: Schema = { t: 'any' };
const list = (items: Schema): Schema => ({ t: 'array', items });
const obj = (required: Record<string, Schema>, optional: Record<string, Schema> = {}): Schema => ({ t: 'object', required, optional });
const map = (values: Schema): Schema => ({ t: 'map', values });

const shardLabel: Schema = {
  t: 'string',
  check: (v) => {
    const m = /^(\d{1,10})\/(\d{1,10})$/.exec(v);
    const [i, n] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    return i >= 1 && i <= n && n <= MAX_SHARDS ? undefined : `expected "i/n" with 1 <= i <= n <= ${MAX_SHARDS}, got ${JSON.stringify(v.slice(0, 40))}`;
  },
};
const shardIndex: Schema = { t: 'number', int: true, min: 1, max: MAX_SHARDS };

const CASE_VERDICTS = ['pass', 'fail', 'warn', 'observed', 'skip', 'error'] as const;
const LEVELS = ['MUST', 'SHOULD', 'OBSERVE'] as const;
const unlock = obj({ unlock: str, how: str });
const regExp: Schema = {
  t: 'string',
  check: (v) => {
    try {
      new RegExp(v);
      return undefined;
    } catch {
      return 'expected a regular expression';
    }
  },
};
/** The run's case filters (CaseFilters of src/engine/plan.ts): a merge plans the cases of a missing shard with them. */
const filters = obj({}, {
  tags: list(str), levels: list(oneOf(LEVELS)), endpoints: list(num), clauses: list(str), grep: regExp, invert: bool, readOnly: bool,
  shard: obj({ index: shardIndex, count: shardIndex }),
});
const headers = map(str);

const exchange = obj({ step: str, request: obj({ method: str, url: str, headers }, { body: str, auth: str }), startedAt: str, elapsedMs: num }, {
  response: obj({ status: num, headers, body: str }, { json: any, bodyProblem: str, contentEncoding: str }),
  throttled: obj({ answers: count, waitedMs: num }),
  transportError: obj({ kind: str, message: str }),
});

const caseResult = obj({
  id: str,
  verdict: oneOf(CASE_VERDICTS),
  level: oneOf(LEVELS),
  title: str,
  file: str,
  clauses: list(str),
  endpoints: list(num),
  tags: list(str),
  assertions: list(obj({ clause: str, level: oneOf(['MUST', 'SHOULD']), passed: bool, message: str, check: str }, { exchange: count })),
  observations: list(obj({ interpretation: str, caseId: str, value: any }, { key: str })),
  exchanges: list(exchange),
  durationMs: num,
}, { tier: str, reason: str, unlock, baseline: obj({ reason: str }, { expires: str }) });

/** The shape of report.json as every reader relies on it (RunReport above; docs/reports.md). */
export const REPORT_SCHEMA: Schema = obj({
  format: oneOf([REPORT_FORMAT]),
  harness: obj({ name: str, version: str }),
  spec: obj({ hash: str }, { clauses: count, interpretations: count }),
  run: obj({
    id: str, startedAt: str, finishedAt: str, runTag: str, seed: num,
    target: obj({ baseUrl: str }, { embedded: bool, image: str }),
    // The filters the run had (a merge plans the shards missing from them) and the profile's token URL (latency).
    options: obj({}, { filters, profile: obj({}, { tokenUrl: str }) }),
  }, {
    durationMs: num,
    concurrency: count,
    deadlineMs: count,
    stopped: obj({ reason: oneOf(['deadline', 'interrupted']), at: str, notRun: count }),
    signer: obj({ algorithm: str, fingerprint: str }),
  }),
  summary: obj({
    verdict: oneOf(RUN_VERDICTS),
    total: count, mustFailures: count, errors: count, unjudgedMust: count, shouldWarnings: count, knownFailures: count,
    conformant: bool,
    failOn: oneOf(['must', 'should']),
    byVerdict: map(count),
    byLevel: map(map(count)),
    toComplete: list(obj({ unlock: str, how: str, cases: list(str) })),
  }),
  cases: list(caseResult),
  implementationProfile: list(obj({ id: str, observed: list(obj({ caseId: str, value: any }, { key: str })) }, {
    question: str, key: { t: 'either', of: [str, { t: 'null' }], what: 'a string or null' }, declared: any,
  })),
  residue: list(obj({ resource: str, caseId: str }, {
    operationId: str, reference: str, id: { t: 'either', of: [str, num], what: 'a string or a number' }, createdAt: str, deleted: bool,
  })),
}, {
  latency: map(obj({ count, p50Ms: num, p95Ms: num, maxMs: num })),
  baseline: obj({ file: str, entries: count, unexpectedPasses: list(str), expired: list(str) }),
  mergedFrom: list(obj({ file: str, runId: str, runTag: str, seed: num, startedAt: str, cases: count }, { shard: shardLabel })),
  missingShards: list(shardLabel),
  transport: obj(
    { throttled: map(count), waitedMs: num, pacedMs: num, gaveUp: count },
    { rateLimit: num, sweep: obj({ records: count, deleted: count, throttled: count }) },
  ),
  residueSummary: obj({ records: count, byResource: map(count), why: str }),
});

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : typeof v);
const shortJson = (v: unknown): string => {
  const text = typeof v === 'object' && v !== null ? typeOf(v) : JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};
/** A member's JSON path: .name when it is an identifier, else ["…"]. */
const member = (path: string, key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${path ? `${path}.` : ''}${key}` : `${path}[${JSON.stringify(key.slice(0, 40))}]`);

/** Walks value against schema, iteratively in the containers it checks; pushes "path: what is wrong". */
function validate(value: unknown, schema: Schema, path: string, problems: string[]): void {
  if (problems.length >= MAX_PROBLEMS) return;
  const at = path || '(the document)';
  switch (schema.t) {
    case 'any': return;
    case 'null':
      if (value !== null) problems.push(`${at}: expected null, got ${shortJson(value)}`);
      return;
    case 'string':
      if (schema.enum && !schema.enum.includes(value as string)) problems.push(`${at}: expected one of ${schema.enum.join(', ')}, got ${value === undefined ? 'nothing' : shortJson(value)}`);
      else if (typeof value !== 'string') problems.push(`${at}: expected a string, got ${value === undefined ? 'nothing' : shortJson(value)}`);
      else {
        const wrong = schema.check?.(value);
        if (wrong) problems.push(`${at}: ${wrong}`);
      }
      return;
    case 'number': {
      const fits = typeof value === 'number' && Number.isFinite(value) && (!schema.int || Number.isInteger(value))
        && (schema.min === undefined || value >= schema.min) && (schema.max === undefined || value <= schema.max);
      if (!fits) {
        problems.push(`${at}: expected ${schema.int ? 'a whole number' : 'a number'}${schema.min !== undefined ? ` from ${schema.min}` : ''}${schema.max !== undefined ? ` to ${schema.max}` : ''}, got ${value === undefined ? 'nothing' : shortJson(value)}`);
      }
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${at}: expected true or false, got ${value === undefined ? 'nothing' : shortJson(value)}`);
      return;
    case 'either':
      if (!schema.of.some((s) => { const p: string[] = []; validate(value, s, path, p); return p.length === 0; })) problems.push(`${at}: expected ${schema.what}, got ${shortJson(value)}`);
      return;
    case 'array':
      if (!Array.isArray(value)) {
        problems.push(`${at}: expected a list, got ${value === undefined ? 'nothing' : shortJson(value)}`);
        return;
      }
      for (let i = 0; i < value.length && problems.length < MAX_PROBLEMS; i++) validate(value[i], schema.items, `${path}[${i}]`, problems);
      return;
    case 'object':
    case 'map': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push(`${at}: expected an object, got ${value === undefined ? 'nothing' : shortJson(value)}`);
        return;
      }
      const record = value as Record<string, unknown>;
      if (schema.t === 'map') {
        for (const key of Object.keys(record)) {
          if (problems.length >= MAX_PROBLEMS) return;
          validate(record[key], schema.values, member(path, key), problems);
        }
        return;
      }
      for (const [key, s] of Object.entries(schema.required)) validate(Object.hasOwn(record, key) ? record[key] : undefined, s, member(path, key), problems);
      for (const [key, s] of Object.entries(schema.optional ?? {})) {
        if (Object.hasOwn(record, key) && record[key] !== undefined) validate(record[key], s, member(path, key), problems);
      }
      return;
    }
  }
}

/**
 * What makes this value not a report of this harness's format, as "path: what is wrong" (up to five, "; "
 * between), or undefined. A reader takes the verdict and its facts as written, so they must all be there: no reader
 * fills a gap.
 */
export function reportProblem(doc: unknown): string | undefined {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'not a report (expected a JSON object)';
  const format = (doc as Record<string, unknown>)['format'];
  if (format !== REPORT_FORMAT) {
    return `format: expected "${REPORT_FORMAT}", got ${shortJson(format)}: this harness reads only reports of its own format (run the suite again with it)`;
  }
  const problems: string[] = [];
  validate(doc, REPORT_SCHEMA, '', problems);
  return problems.length ? problems.join('; ') : undefined;
}

/**
 * A report from its text (or bytes), checked before anything reads it: size, nesting depth and parsed weight
 * within bounds, then JSON, then REPORT_SCHEMA. `where` names the file (or the bundle entry) in every error.
 */
export function parseReport(data: string | Buffer, where: string, budget?: ReadBudget): RunReport {
  if (data.length > MAX_REPORT_BYTES) throw new UsageError(`${where}: ${data.length} bytes, more than a report can be (${MAX_REPORT_BYTES / 2 ** 20} MiB); not read`, 'RDX_ERR_REPORT');
  const text = typeof data === 'string' ? data : utf8Text(data);
  const scan = jsonScan(text);
  if (scan.depth > MAX_REPORT_DEPTH) throw new UsageError(`${where}: nests deeper than ${MAX_REPORT_DEPTH} levels, which no report does; not read`, 'RDX_ERR_REPORT');
  if (scan.weight > MAX_REPORT_PARSED_BYTES) throw new UsageError(`${where}: would take about ${Math.round(scan.weight / 2 ** 20)} MiB once parsed, more than a report can (${MAX_REPORT_PARSED_BYTES / 2 ** 20} MiB); not read`, 'RDX_ERR_REPORT');
  if (budget) {
    budget.used += scan.weight;
    if (budget.used > MAX_REPORTS_PARSED_BYTES) {
      throw new UsageError(`${where}: the reports read so far with it would take about ${Math.round(budget.used / 2 ** 20)} MiB once parsed, more than one command reads (${MAX_REPORTS_PARSED_BYTES / 2 ** 20} MiB); merge fewer at a time (a merged report.json can be merged again)`, 'RDX_ERR_REPORT');
    }
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where}: not JSON (${(error as Error).message})`, 'RDX_ERR_REPORT');
  }
  const problem = reportProblem(doc);
  if (problem) throw new UsageError(`${where}: ${problem}`, 'RDX_ERR_REPORT');
  return doc as RunReport;
}

/** Reads and checks a report.json (parseReport); a problem names the file and the field, never a stack trace. */
export function readReportFile(file: string, budget?: ReadBudget): RunReport {
  let data: Buffer;
  try {
    // Refused before it is read when it is too large to be a report.
    const size = statSync(file).size;
    if (size > MAX_REPORT_BYTES) throw new UsageError(`${file}: ${size} bytes, more than a report can be (${MAX_REPORT_BYTES / 2 ** 20} MiB); not read`, 'RDX_ERR_REPORT');
    data = readFileSync(file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file}: cannot read the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'RDX_ERR_REPORT');
  }
  return parseReport(data, file, budget);
}

/** What the reports one command reads take once parsed, together (MAX_REPORTS_PARSED_BYTES). */
export interface ReadBudget {
  used: number;
}
