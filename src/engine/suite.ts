// Suite files: loading, validation against suites/suite.schema.json, and the lint rules a schema cannot say.
// A bad file is reported as "file:line: field: what is wrong", never as a stack trace.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, isMap, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { clauses, interpretations, operations, packageRoot, resourceInfo, type Level } from '../spec/index.js';
import { newAjv } from '../spec/schemas.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Tier } from '../core/results.js';
import { exploreEndpoints, type ExploreModel } from './explore/families.js';

export interface ExpectDef {
  clause?: string;
  outcome?: 'success' | 'failure';
  status?: number | string | (number | string)[];
  body?: 'message' | 'success' | 'list' | 'error' | 'batch-create' | 'partial-success' | 'token';
  equals?: Record<string, unknown>;
  length?: Record<string, number>;
  checks?: (string | { id: string; clause?: string; with?: Record<string, unknown> })[];
}

export interface StepDef {
  name: string;
  setup?: boolean;
  cleanup?: boolean;
  operation?: string;
  method?: string;
  path?: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  auth?: 'default' | 'none' | 'expired' | 'query' | 'header';
  authHeader?: string;
  body?: unknown;
  /** Bytes sent as is, or a generator that makes them ({ $form: {…} }). */
  rawBody?: string | Record<string, unknown>;
  contentType?: string;
  paginate?: { maxPages?: number };
  /** Send the request under each list encoding (or the declared one) until one meets the expectations. */
  tryListEncodings?: boolean;
  /** The list encoding of query arrays for this step (a template, e.g. one captured as $listEncoding). */
  listEncoding?: string;
  expect?: ExpectDef | ExpectDef[];
  /**
   * The control of a negative probe: the same request with the one difference under test removed (these fields in
   * place of the step's), sent at the end of the case, after the read-backs; it must succeed, or the refusal proved
   * nothing. `repair: true` sends the body with every $invalid item as it was before it was spoiled.
   */
  control?: ControlDef;
  capture?: Record<string, string>;
  observe?: Record<string, string | { from?: string; includes?: unknown; equals?: unknown; map?: Record<string, unknown>; otherwise?: unknown }>;
}

export interface ControlDef {
  auth?: StepDef['auth'];
  authHeader?: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  rawBody?: string | Record<string, unknown>;
  repair?: boolean;
}

export interface CaseDef {
  id: string;
  title: string;
  level: Level;
  clauses: string[];
  tags: string[];
  tier: Tier;
  requires: string[];
  /** Cases sharing state on the target (PUT /users replaces them all): they run one at a time, in the plan's order. */
  group?: string;
  /** Reads what any other case may change (a list walked unfiltered, the run's token): nothing runs beside it. */
  alone?: boolean;
  when?: { atsJobOfferId?: boolean; expiredToken?: boolean; atsJobOfferFixtures?: boolean };
  vars?: Record<string, unknown>;
  steps: StepDef[];
  /** An explore case: the model whose generated sequences it runs instead of steps (docs/explore.md). */
  explore?: ExploreModel;
  /** Where it was read from, for messages: suites/… relative path and line. */
  file: string;
  line: number;
  /** Endpoints (1..21) its steps call, derived from the operations named. */
  endpoints: number[];
}

export interface SuiteProblem {
  file: string;
  line: number;
  field: string;
  message: string;
}

export class SuiteError extends Error {
  constructor(readonly problems: SuiteProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(p: SuiteProblem): string {
  return `${p.file}:${p.line}: ${p.field}: ${p.message}`;
}

export const suitesDir = join(packageRoot, 'suites');

let suiteValidator: ValidateFunction | undefined;
function validateSuite(value: unknown): { instancePath: string; message: string }[] {
  if (!suiteValidator) {
    const ajv = newAjv({ allErrors: true, strict: false });
    suiteValidator = ajv.compile(JSON.parse(readFileSync(join(suitesDir, 'suite.schema.json'), 'utf8')) as object);
  }
  if (suiteValidator(value)) return [];
  return (suiteValidator.errors ?? []).map((e) => ({
    // An unknown field is placed at its own line, not at the object holding it.
    instancePath: e.keyword === 'additionalProperties' ? `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}` : e.instancePath,
    message: e.keyword === 'additionalProperties'
      ? `unknown field ${(e.params as { additionalProperty: string }).additionalProperty}`
      : e.keyword === 'enum' ? `${e.message}: ${((e.params as { allowedValues: unknown[] }).allowedValues).join(', ')}`
        : (e.message ?? e.keyword),
  }));
}

/** The YAML node at a JSON-pointer-like instance path, to give a line number. */
function nodeAt(root: YamlNode | null, instancePath: string): YamlNode | null {
  let node: YamlNode | null = root;
  for (const part of instancePath.split('/').filter(Boolean)) {
    if (isMap(node)) node = (node.get(part, true) as YamlNode | undefined) ?? node;
    else if (isSeq(node)) node = (node.get(Number(part), true) as YamlNode | undefined) ?? node;
    else break;
  }
  return node;
}

export function listSuiteFiles(dir: string = suitesDir): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** Reads every suite file; throws SuiteError listing every problem of every file. */
export function loadSuites(files: string[] = listSuiteFiles()): CaseDef[] {
  const problems: SuiteProblem[] = [];
  const cases: CaseDef[] = [];
  const cache = parsedCache();
  for (const path of files) {
    const file = relative(packageRoot, path) || path;
    const text = readFileSync(path, 'utf8');
    const parsed = cache?.[parsedKey(text)] ?? parseSuite(text, file, problems);
    if (!parsed) continue;
    parsed.value.cases.forEach((c, i) => {
      for (const x of expandEach(c)) {
        cases.push({
          ...x, steps: x.steps ?? [], tags: x.tags ?? [], requires: x.requires ?? [], file, line: parsed.lines[i] ?? 1,
          endpoints: x.explore ? exploreEndpoints(x.explore) : endpointsOfCase(x.steps),
        });
      }
    });
  }
  problems.push(...lintCases(cases));
  if (problems.length > 0) throw new SuiteError(problems);
  return cases;
}

/** A suite file read and checked against the schema: its value, and the line of each case. */
interface ParsedSuite {
  value: { cases: RawCase[] };
  lines: number[];
}

/**
 * The suites that ship, parsed and checked at build time (scripts/bundle.mjs writes it beside this module), by the
 * hash of their text and of the schema: parsing them anew (yaml) costs about a second of every run. A file edited
 * since the build has another hash and is parsed as it is now.
 */
const PARSED_CACHE = join(dirname(fileURLToPath(import.meta.url)), 'suites.parsed.json');

let cacheText: string | null | undefined;
/** The build's parsed suites, fresh objects on every call (a caller may change the cases it is handed). */
function parsedCache(): Record<string, ParsedSuite> | null {
  try {
    cacheText ??= existsSync(PARSED_CACHE) ? readFileSync(PARSED_CACHE, 'utf8') : null;
    return cacheText === null ? null : JSON.parse(cacheText) as Record<string, ParsedSuite>;
  } catch {
    return null;
  }
}

let schemaHash: string | undefined;
/** The cache key of a suite file's text: its hash with the schema's, so a new schema parses every file anew. */
function parsedKey(text: string): string {
  schemaHash ??= createHash('sha256').update(readFileSync(join(suitesDir, 'suite.schema.json'))).digest('hex');
  return createHash('sha256').update(schemaHash).update('\0').update(text).digest('hex');
}

/** The cache the build writes: every suite file that parses and passes the schema, by parsedKey. */
export function parsedSuites(files: string[] = listSuiteFiles()): Record<string, ParsedSuite> {
  const out: Record<string, ParsedSuite> = {};
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    const parsed = parseSuite(text, path, []);
    if (parsed) out[parsedKey(text)] = parsed;
  }
  return out;
}

/** Parses a suite file and checks it against the schema; undefined (with the problems added) when it fails. */
function parseSuite(text: string, file: string, problems: SuiteProblem[]): ParsedSuite | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineOf = (node: YamlNode | null): number => (node?.range ? lineCounter.linePos(node.range[0]).line : 1);
  if (doc.errors.length > 0) {
    for (const e of doc.errors) problems.push({ file, line: e.linePos?.[0]?.line ?? 1, field: '(yaml)', message: e.message.split('\n')[0] ?? e.message });
    return undefined;
  }
  const value = doc.toJS() as unknown;
  const schemaProblems = validateSuite(value);
  for (const p of schemaProblems) {
    problems.push({ file, line: lineOf(nodeAt(doc.contents, p.instancePath)), field: p.instancePath || '(file)', message: p.message });
  }
  if (schemaProblems.length > 0) return undefined;
  const suite = value as { cases: RawCase[] };
  return { value: suite, lines: suite.cases.map((_, i) => lineOf(nodeAt(doc.contents, `/cases/${i}`))) };
}

type RawCase = Omit<CaseDef, 'file' | 'line' | 'endpoints'> & { each?: Record<string, Record<string, unknown>[]> };

/** One copy of the case per `each` item, with ${each.NAME.field} replaced (a lone template keeps the value's type). */
function expandEach(c: RawCase): Omit<CaseDef, 'file' | 'line' | 'endpoints'>[] {
  if (!c.each) return [c];
  const [name, items] = Object.entries(c.each)[0] as [string, Record<string, unknown>[]];
  const { each: _, ...rest } = c;
  const itemField = new RegExp(`^\\$\\{each\\.${name}\\.(\\w+)\\}$`);
  return items.map((item) => {
    // A step whose operation is the item's, where the item gives none, is not for this item: it is left out.
    const steps = rest.steps.filter((s) => {
      const field = typeof s.operation === 'string' ? itemField.exec(s.operation)?.[1] : undefined;
      return field === undefined || item[field] !== undefined;
    });
    const fill = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const whole = itemField.exec(v);
        if (whole?.[1]) return item[whole[1]];
        return v.replace(new RegExp(`\\$\\{each\\.${name}\\.(\\w+)\\}`, 'g'), (_m, f: string) => String(item[f] ?? ''));
      }
      if (Array.isArray(v)) return v.map(fill);
      // Each member filled once (filling it again per test would double the work at every level of nesting).
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]).filter(([, x]) => x !== undefined));
      return v;
    };
    return { ...(fill({ ...rest, steps }) as Omit<CaseDef, 'file' | 'line' | 'endpoints'>), id: `${c.id}.${String(item['id'])}` };
  });
}

function endpointsOfCase(steps: StepDef[]): number[] {
  const byId = new Map(operations().map((o) => [o.operationId, o.endpoint]));
  const set = new Set<number>();
  for (const s of steps) if (s.operation && byId.has(s.operation)) set.add(byId.get(s.operation) as number);
  return [...set].sort((a, b) => a - b);
}

/** Rules across files and against spec/: what a per-file schema cannot check. */
export function lintCases(cases: CaseDef[], knownChecks?: Set<string>): SuiteProblem[] {
  const problems: SuiteProblem[] = [];
  const clauseIds = new Map(clauses().map((c) => [c.id, c]));
  const interpretationIds = new Set(interpretations().map((i) => i.id));
  const operationIds = new Set(operations().map((o) => o.operationId));
  const ids = new Map<string, CaseDef>();
  const at = (c: CaseDef, field: string, message: string): void => {
    problems.push({ file: c.file, line: c.line, field: `${c.id}.${field}`, message });
  };
  for (const c of cases) {
    const twin = ids.get(c.id);
    if (twin) at(c, 'id', `duplicate case id (also at ${twin.file}:${twin.line})`);
    ids.set(c.id, c);
  }
  for (const c of cases) {
    if (/\bshould\b/i.test(c.title) && c.level !== 'SHOULD') at(c, 'title', 'says "should" but the level is not SHOULD');
    for (const id of c.clauses) {
      const known = clauseIds.get(id);
      if (!known && !(c.level === 'OBSERVE' && interpretationIds.has(id))) at(c, 'clauses', `unknown clause ${id}`);
      if (known && c.level !== 'OBSERVE' && known.level !== c.level && c.clauses.every((x) => clauseIds.get(x)?.level !== c.level)) {
        at(c, 'level', `${c.level} case names only ${known.level} clauses`);
      }
    }
    if (c.level !== 'OBSERVE' && c.clauses.length === 0) at(c, 'clauses', 'a MUST or SHOULD case names at least one clause');
    for (const r of c.requires) if (!ids.has(r)) at(c, 'requires', `unknown case ${r}`);
    c.steps.forEach((s, i) => {
      if (s.operation && !operationIds.has(s.operation)) at(c, `steps[${i}].operation`, `unknown operationId ${s.operation}`);
      if (!s.operation && !s.path) at(c, `steps[${i}]`, 'names neither an operation nor a path');
      if (s.auth === 'header' && s.authHeader === undefined) at(c, `steps[${i}].authHeader`, 'auth: header needs authHeader');
      for (const e of [s.expect ?? []].flat()) {
        if (e.clause && !clauseIds.has(e.clause)) at(c, `steps[${i}].expect.clause`, `unknown clause ${e.clause}`);
        for (const check of e.checks ?? []) {
          const id = typeof check === 'string' ? check : check.id;
          if (knownChecks && !knownChecks.has(id)) at(c, `steps[${i}].expect.checks`, `unknown check ${id}`);
        }
      }
    });
    lintGenerators(c, c.vars, 'vars', at);
    c.steps.forEach((s, i) => lintGenerators(c, s.body, `steps[${i}].body`, at));
  }
  return problems;
}

/** A wrong-type item of a union field would accuse a legal implementation: the union's members are unknown. */
function lintGenerators(c: CaseDef, value: unknown, field: string, at: (c: CaseDef, f: string, m: string) => void): void {
  if (Array.isArray(value)) return value.forEach((v, i) => lintGenerators(c, v, `${field}[${i}]`, at));
  if (!value || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  const resource = obj['$invalid'] ?? obj['$valid'];
  if (typeof resource === 'string') {
    let info;
    try {
      info = resourceInfo(resource);
    } catch {
      return at(c, field, `unknown resource ${resource} (a spec/schemas file stem)`);
    }
    const wrongType = obj['wrongType'];
    if (typeof wrongType === 'string') {
      const f = info.fields.find((x) => x.name === wrongType);
      if (!f) at(c, field, `${resource} has no field ${wrongType}`);
      else if (f.union) at(c, field, `${wrongType} is a union field: a wrong type cannot be known`);
    }
    const omit = obj['omit'];
    if (typeof omit === 'string' && !info.fields.some((x) => x.name === omit)) at(c, field, `${resource} has no field ${omit}`);
    return;
  }
  for (const [k, v] of Object.entries(obj)) lintGenerators(c, v, `${field}.${k}`, at);
}
