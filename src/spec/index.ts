// The one door to spec/: every other module reads the API's rules, schemas and open points through here,
// so that a rule is written once (in spec/) and never restated in code.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { cacheDir } from './cache-dir.js';

// yaml and ajv are loaded when first needed (both are CommonJS): together they were half a second of the
// simulator's start-up, which needs neither when the parsed registers are cached (see readYaml).
const require = createRequire(import.meta.url);

export type ClauseLevel = 'MUST' | 'SHOULD';
export type Level = ClauseLevel | 'OBSERVE';

export interface Clause {
  id: string;
  level: ClauseLevel;
  family: string;
  title: string;
  /** The spec's words (MUST clauses). */
  quote?: string;
  /** The RFC or convention a SHOULD clause rests on. */
  basis?: string;
  section?: string;
  endpoints: number[];
  note?: string;
}

export interface Interpretation {
  id: string;
  quote: string;
  question: string;
  /** `declared`: the simulator's behaviour in the vocabulary of `values`, where `default` is in the simulator's own. */
  simulator: { default: unknown; declared?: unknown; text: string };
  harness: string;
  key: string | null;
  values?: unknown;
}

export type OperationKind =
  | 'token' | 'batchCreate' | 'list' | 'get' | 'replace' | 'patch' | 'attributeUpdate' | 'delete' | 'usersReplace';

export interface Operation {
  operationId: string;
  endpoint: number;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  kind: OperationKind;
  resource: string;
  /** Schema URI of the request body, or of one item when the body is an array. */
  requestSchema?: string;
  requestIsArray: boolean;
  /** Schema URI of one record in the success body's data. */
  recordSchema?: string;
  /** The names of its query parameters (the filters of a list). */
  query: string[];
}

export const SCHEMA_BASE = 'https://schemas.rdx-conformance.dev/';
const ALL_ENDPOINTS = Array.from({ length: 21 }, (_, i) => i + 1);

/** The package root: the nearest folder above this module holding package.json (works from src/ and dist/). */
export const packageRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('rdx: cannot find the package root (no package.json above the module)');
    dir = up;
  }
  return dir;
})();

export const specDir = join(packageRoot, 'spec');

/** Parsed spec files as JSON, named by the SHA-256 of the YAML text they came from: a changed file is parsed anew. */
const YAML_CACHE = cacheDir('spec');

function readYaml(file: string): unknown {
  const text = readFileSync(join(specDir, file), 'utf8');
  const hash = createHash('sha256').update(text).digest('hex');
  const cached = YAML_CACHE === undefined ? undefined : join(YAML_CACHE, `${file}-${hash.slice(0, 16)}.json`);
  try {
    const entry = JSON.parse(readFileSync(cached ?? '', 'utf8')) as { sha256?: unknown; value?: unknown };
    if (entry.sha256 === hash) return entry.value;
  } catch {
    // No cache yet, or an unreadable one: parse the YAML.
  }
  const { parse } = require('yaml') as typeof import('yaml');
  const value: unknown = parse(text);
  if (YAML_CACHE === undefined || cached === undefined) return value;
  try {
    // Best effort (the package may be read-only), and atomic, so that a concurrent reader never sees half a file.
    mkdirSync(YAML_CACHE, { recursive: true });
    const temp = `${cached}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ sha256: hash, value }));
    renameSync(temp, cached);
  } catch {
    // Parsing each time is only slower.
  }
  return value;
}

function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`rdx: ${where} is not a mapping`);
  }
  return value as Record<string, unknown>;
}

function endpointsOf(value: unknown, where: string): number[] {
  if (value === 'all') return ALL_ENDPOINTS;
  if (value === 'protected') return ALL_ENDPOINTS.filter((n) => n !== 1);
  if (Array.isArray(value) && value.every((n) => Number.isInteger(n) && n >= 1 && n <= 21)) return value as number[];
  throw new Error(`rdx: ${where}.endpoints must be "all", "protected" or a list of 1..21`);
}

let clausesCache: Clause[] | undefined;
export function clauses(): Clause[] {
  if (clausesCache) return clausesCache;
  const doc = asRecord(readYaml('clauses.yaml'), 'spec/clauses.yaml');
  const list = doc['clauses'];
  if (!Array.isArray(list)) throw new Error('rdx: spec/clauses.yaml has no clauses list');
  clausesCache = list.map((raw, i) => {
    const c = asRecord(raw, `spec/clauses.yaml clauses[${i}]`);
    return { ...(c as unknown as Clause), endpoints: endpointsOf(c['endpoints'], `spec/clauses.yaml clauses[${i}]`) };
  });
  return clausesCache;
}

export function clause(id: string): Clause {
  const found = clauses().find((c) => c.id === id);
  if (!found) throw new Error(`rdx: unknown clause ${id} (not in spec/clauses.yaml)`);
  return found;
}

let interpretationsCache: Interpretation[] | undefined;
export function interpretations(): Interpretation[] {
  if (interpretationsCache) return interpretationsCache;
  const doc = asRecord(readYaml('interpretations.yaml'), 'spec/interpretations.yaml');
  const list = doc['interpretations'];
  if (!Array.isArray(list)) throw new Error('rdx: spec/interpretations.yaml has no interpretations list');
  interpretationsCache = list as Interpretation[];
  return interpretationsCache;
}

export function interpretation(id: string): Interpretation {
  const found = interpretations().find((i) => i.id === id);
  if (!found) throw new Error(`rdx: unknown interpretation ${id} (not in spec/interpretations.yaml)`);
  return found;
}

/** The simulator's default for an open point, as the register states it. */
export function simulatorDefault<T>(id: string): T {
  return interpretation(id).simulator.default as T;
}

export function schemaFiles(): string[] {
  return readdirSync(join(specDir, 'schemas')).filter((f) => f.endsWith('.json')).sort();
}

const schemaCache = new Map<string, Record<string, unknown>>();
export function loadSchema(file: string): Record<string, unknown> {
  let schema = schemaCache.get(file);
  if (!schema) {
    schema = asRecord(JSON.parse(readFileSync(join(specDir, 'schemas', file), 'utf8')), `spec/schemas/${file}`);
    schemaCache.set(file, schema);
  }
  return schema;
}

/** An OpenAPI ref such as './schemas/job-offer.json#/$defs/create' as the schema URI ajv knows it by. */
export function schemaUri(ref: string): string {
  return SCHEMA_BASE + ref.replace(/^\.\/schemas\//, '');
}

let openApiCache: Record<string, unknown> | undefined;
export function openApi(): Record<string, unknown> {
  openApiCache ??= asRecord(readYaml('openapi.yaml'), 'spec/openapi.yaml');
  return openApiCache;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Finds the schema ref of a JSON body, looking through one level of array and allOf. */
function bodyRef(schema: unknown): { ref?: string; isArray: boolean } {
  const s = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : {};
  if (typeof s['$ref'] === 'string') return { ref: s['$ref'], isArray: false };
  if (s['type'] === 'array') return { ...bodyRef(s['items']), isArray: true };
  return { isArray: false };
}

/** Finds the ref of one record of the success body's data (data.items, possibly nested for PUT /users). */
function recordRef(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Record<string, unknown>;
  const data = (s['properties'] as Record<string, unknown> | undefined)?.['data'] as Record<string, unknown> | undefined;
  if (data) {
    let items = data['items'] as Record<string, unknown> | undefined;
    while (items && items['type'] === 'array') items = items['items'] as Record<string, unknown> | undefined;
    if (items && typeof items['$ref'] === 'string') return items['$ref'];
  }
  for (const part of (s['allOf'] as unknown[] | undefined) ?? []) {
    const found = recordRef(part);
    if (found) return found;
  }
  return undefined;
}

function resolveLocal(doc: Record<string, unknown>, value: unknown): unknown {
  const ref = (value as Record<string, unknown> | undefined)?.['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return value;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
  return resolveLocal(doc, node);
}

let operationsCache: Operation[] | undefined;
/** The 21 operations, in endpoint order, as spec/openapi.yaml declares them. */
export function operations(): Operation[] {
  if (operationsCache) return operationsCache;
  const doc = openApi();
  const paths = asRecord(doc['paths'], 'spec/openapi.yaml paths');
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const body = resolveLocal(doc, op['requestBody']) as Record<string, unknown> | undefined;
      const bodySchema = (body?.['content'] as Record<string, Record<string, unknown>> | undefined)?.['application/json']?.['schema'];
      const request = bodyRef(bodySchema);
      const responses = (op['responses'] ?? {}) as Record<string, unknown>;
      const success = resolveLocal(doc, responses['2XX'] ?? responses['200'] ?? responses['201']) as Record<string, unknown> | undefined;
      const successSchema = (success?.['content'] as Record<string, Record<string, unknown>> | undefined)?.['application/json']?.['schema'];
      const record = recordRef(resolveLocal(doc, successSchema));
      const query = ((op['parameters'] ?? []) as unknown[]).map((p) => resolveLocal(doc, p) as Record<string, unknown>)
        .filter((p) => p['in'] === 'query').map((p) => String(p['name']));
      ops.push({
        operationId: String(op['operationId']),
        endpoint: Number(op['x-rdx-endpoint']),
        method: method.toUpperCase() as Operation['method'],
        path,
        kind: op['x-rdx-kind'] as OperationKind,
        resource: String(op['x-rdx-resource']),
        requestIsArray: request.isArray,
        query,
        ...(request.ref ? { requestSchema: schemaUri(request.ref) } : {}),
        ...(record ? { recordSchema: schemaUri(record) } : {}),
      });
    }
  }
  operationsCache = ops.sort((a, b) => a.endpoint - b.endpoint);
  return operationsCache;
}

export function operation(operationId: string): Operation {
  const found = operations().find((o) => o.operationId === operationId);
  if (!found) throw new Error(`rdx: unknown operation ${operationId} (not in spec/openapi.yaml)`);
  return found;
}

/**
 * Our own annotation keywords in the schemas, which ajv ignores: x-rdx-union (a union field: never sent with a wrong
 * type), x-rdx-reference (a job offer reference field), x-rdx-identity (the field that tells one created item from
 * another in a batch); and at the top of a resource's file x-rdx-columns (the fields a listing of its records shows
 * first: the simulator's dashboard) and x-rdx-id-key (the fields of a create item that name the one record it
 * creates, where the identity field alone does not: what an id source is asked by; see resourceInfo).
 */
const ANNOTATIONS = ['x-rdx-union', 'x-rdx-reference', 'x-rdx-identity'];

export type DateFormat = 'date' | 'date-time';

/**
 * The date format a schema property declares with standard `format` (or the first of an anyOf of formats): the
 * simulator's reading of DATE_VALUE_FORMAT, which the simulator enforces (simulator/dates.ts) and ajv does not
 * (validateFormats is off), so the harness never judges a service by it.
 */
export function declaredFormat(property: Record<string, unknown>): DateFormat | undefined {
  const formats = [property, ...((property['anyOf'] as Record<string, unknown>[] | undefined) ?? [])].map((p) => p['format']);
  return formats.find((f): f is DateFormat => f === 'date' || f === 'date-time');
}

/**
 * An ajv instance with every schema of spec/schemas added, each compiled on first use. `code` is for the build,
 * which compiles them all into validators.cjs (scripts/bundle.mjs).
 */
export function newSchemaRegistry(code?: { source: true }): Ajv2020 {
  // strictTypes and strictRequired off: our defs add `required` beside a `$ref` to an object schema, sound in 2020-12.
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // validateFormats off: `format` is an annotation here, as JSON Schema 2020-12 makes it by default (see declaredFormat).
  // validateSchema off: checking our schemas against the 2020-12 meta-schema compiled that meta-schema on every start;
  // openapi.test.ts checks them against it instead.
  const ajv = new Ajv({
    strict: true, strictTypes: false, strictRequired: false, allErrors: true, validateFormats: false, validateSchema: false,
    ...(code ? { code } : {}),
  });
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: ['string', 'boolean'] });
  ajv.addKeyword({ keyword: 'x-rdx-columns', schemaType: 'array' });
  ajv.addKeyword({ keyword: 'x-rdx-id-key', schemaType: 'array' });
  for (const file of schemaFiles()) ajv.addSchema(loadSchema(file));
  return ajv;
}

let ajvCache: Ajv2020 | undefined;
/** The ajv registry of spec/schemas, made once. */
export function schemaRegistry(): Ajv2020 {
  ajvCache ??= newSchemaRegistry();
  return ajvCache;
}

/** The URI of every definition of spec/schemas: what validator() may be asked for. */
export function schemaDefinitionUris(): string[] {
  return schemaFiles().flatMap((file) => Object.keys((loadSchema(file)['$defs'] ?? {}) as object).map((name) => `${SCHEMA_BASE}${file}#/$defs/${name}`));
}

/** SHA-256 over spec/schemas in name order: which schemas the build's validators.cjs was compiled from. */
export function schemasHash(): string {
  const hash = createHash('sha256');
  for (const file of schemaFiles()) hash.update(file).update('\0').update(readFileSync(join(specDir, 'schemas', file))).update('\0');
  return hash.digest('hex');
}

/** File name of the validators the build compiles, beside this module. */
export const PRECOMPILED_VALIDATORS = 'validators.cjs';

type Precompiled = Record<string, ValidateFunction | string>;
let precompiledCache: Precompiled | null | undefined;
/**
 * The build's ahead-of-time compiled validators (ajv standalone code), when they were compiled from the schemas in
 * spec/ now: loading them skips loading and running ajv's compiler, which was most of the simulator's first answer
 * (60 to 90 ms). Missing or stale (schemas edited after the build), the registry compiles as before.
 */
function precompiled(): Precompiled | null {
  if (precompiledCache !== undefined) return precompiledCache;
  precompiledCache = null;
  try {
    const module = require(`./${PRECOMPILED_VALIDATORS}`) as Precompiled;
    if (module['schemasHash'] === schemasHash()) precompiledCache = module;
  } catch {
    // Not built (running from a partial build): compile on demand.
  }
  return precompiledCache;
}

/** The build's compiled validator of a schema URI; undefined when there is none for the schemas as they are now. */
export function precompiledValidator(uri: string): ValidateFunction | undefined {
  const ready = precompiled()?.[uri];
  return typeof ready === 'function' ? ready : undefined;
}

export function validator(uri: string): ValidateFunction {
  const ready = precompiledValidator(uri);
  if (ready) return ready;
  const fn = schemaRegistry().getSchema(uri);
  if (!fn) throw new Error(`rdx: no schema ${uri} in spec/schemas`);
  return fn;
}

const listsFieldsCache = new Map<string, boolean>();
/**
 * Whether a def (or the def its lone $ref names) is a closed request def: its own `properties`, each a $ref to
 * `#/$defs/fields/properties/<name>`, and `additionalProperties: false`. It replaced the composition
 * `{ $ref: fields, required, unevaluatedProperties: false }` (a form peer tools read), with the same verdicts.
 */
function listsFields(uri: string): boolean {
  const known = listsFieldsCache.get(uri);
  if (known !== undefined) return known;
  const [file = '', pointer = ''] = uri.slice(SCHEMA_BASE.length).split('#');
  let def: unknown = uri.startsWith(SCHEMA_BASE) && schemaFiles().includes(file) ? loadSchema(file) : undefined;
  for (const part of pointer.split('/').filter(Boolean)) def = (def as Record<string, unknown> | undefined)?.[part];
  const node = (def ?? {}) as Record<string, unknown>;
  const ref = node['$ref'];
  const props = Object.values((node['properties'] ?? {}) as Record<string, Record<string, unknown>>);
  const result = typeof ref === 'string' && ref.startsWith('#/$defs/') && node['properties'] === undefined
    ? listsFields(`${SCHEMA_BASE}${file}${ref}`)
    : node['additionalProperties'] === false && props.length > 0
      && props.every((p) => typeof p['$ref'] === 'string' && p['$ref'].startsWith('#/$defs/fields/properties/'));
  listsFieldsCache.set(uri, result);
  return result;
}

/** Validation errors of a value against a schema URI, as short "path: message" lines; empty when valid. */
export function schemaErrors(uri: string, value: unknown): string[] {
  const fn = validator(uri);
  if (fn(value)) return [];
  const errors = fn.errors ?? [];
  // ajv reports a closed def's own `required` and unknown members before its fields' problems; the composition it
  // replaced reported the fields' first. The problems keep the order they always had (the body's own last).
  if (!listsFields(uri)) return errors.map(formatError);
  return [...errors.filter((e) => e.instancePath !== ''), ...errors.filter((e) => e.instancePath === '')].map(formatError);
}

export function formatError(e: ErrorObject): string {
  const at = e.instancePath === '' ? '(body)' : e.instancePath;
  if (e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') {
    const name = (e.params as { unevaluatedProperty?: string; additionalProperty?: string });
    return `${at}: unknown field ${name.unevaluatedProperty ?? name.additionalProperty}`;
  }
  if (e.keyword === 'required') return `${at}: ${(e.params as { missingProperty: string }).missingProperty} is required`;
  return `${at}: ${e.message ?? e.keyword}`;
}

/** SHA-256 over every file of spec/ in name order: identifies the spec a report was judged against. */
export function specHash(): string {
  const hash = createHash('sha256');
  const files = ['clauses.yaml', 'interpretations.yaml', 'openapi.yaml', ...schemaFiles().map((f) => `schemas/${f}`)];
  for (const f of files) {
    const path = join(specDir, f);
    if (!existsSync(path)) continue;
    hash.update(f).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

/** The upstream spec text, when ../shared/spec sits beside the checkout (it does in CI). */
export function upstreamSpecText(): string | undefined {
  const candidates = [
    process.env['RDX_SPEC_FILE'],
    join(packageRoot, '..', 'shared', 'spec', 'recruitment-data-exchange-spec.md'),
  ].filter((p): p is string => typeof p === 'string');
  for (const p of candidates) if (existsSync(p)) return readFileSync(p, 'utf8');
  return undefined;
}

export interface FieldInfo {
  name: string;
  /** JSON types the request schema admits (null admitted means "optional, may be cleared"). */
  types: string[];
  union: boolean;
  identity: boolean;
  reference: boolean;
  format?: string;
}

export interface ResourceInfo {
  resource: string;
  fields: FieldInfo[];
  /** Fields a create item must carry. */
  required: string[];
  /** The field that tells one created item from another. */
  identity: string;
  /**
   * The fields of a create item that name the record it creates, for learning its {id} (an id source's key):
   * x-rdx-id-key of the schema file, which starts with the identity field; else the identity field alone.
   */
  idKey: string[];
}

/** The def describing one item a client creates, per resource file. */
const CREATE_DEF: Record<string, string> = { user: 'replace-item' };

/** Field facts of a resource, read from its schema (fields, or the create def when there is no fields def). */
const resourceInfoCache = new Map<string, ResourceInfo>();
export function resourceInfo(resource: string): ResourceInfo {
  const cached = resourceInfoCache.get(resource);
  if (cached) return cached;
  const defs = loadSchema(`${resource}.json`)['$defs'] as Record<string, Record<string, unknown>>;
  const create = defs[CREATE_DEF[resource] ?? 'create'];
  if (!create) throw new Error(`rdx: spec/schemas/${resource}.json has no create def`);
  const props = ((defs['fields'] ?? create)['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const fields: FieldInfo[] = Object.entries(props).map(([name, p]) => ({
    name,
    types: Array.isArray(p['type']) ? (p['type'] as string[]) : [String(p['type'] ?? 'string')],
    union: p['x-rdx-union'] === true,
    identity: p['x-rdx-identity'] === true,
    reference: typeof p['x-rdx-reference'] === 'string',
    ...(declaredFormat(p) ? { format: declaredFormat(p) } : {}),
  }));
  const identity = fields.find((f) => f.identity)?.name;
  if (!identity) throw new Error(`rdx: spec/schemas/${resource}.json marks no field x-rdx-identity`);
  const schema = loadSchema(`${resource}.json`);
  const idKey = Array.isArray(schema['x-rdx-id-key']) ? (schema['x-rdx-id-key'] as unknown[]).map(String) : [identity];
  if (idKey[0] !== identity || idKey.some((name) => !fields.some((f) => f.name === name))) {
    throw new Error(`rdx: spec/schemas/${resource}.json: x-rdx-id-key must start with the x-rdx-identity field ${identity} and name only its fields`);
  }
  const info = { resource, fields, required: (create['required'] as string[] | undefined) ?? [], identity, idKey };
  resourceInfoCache.set(resource, info);
  return info;
}

export interface ListingColumn {
  name: string;
  kind: 'text' | 'number' | 'reference';
}

/** The fields a listing of a resource's records shows first (x-rdx-columns of its schema file), with what each holds. */
export function listingColumns(resource: string): ListingColumn[] {
  const schema = loadSchema(`${resource}.json`);
  const names = schema['x-rdx-columns'];
  if (!Array.isArray(names)) return [];
  const props: Record<string, Record<string, unknown>> = {};
  for (const def of Object.values((schema['$defs'] ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const [name, p] of Object.entries((def['properties'] ?? {}) as Record<string, Record<string, unknown>>)) props[name] ??= p;
  }
  return names.map((name) => {
    const p = props[String(name)];
    if (!p) throw new Error(`rdx: spec/schemas/${resource}.json: x-rdx-columns names ${String(name)}, which no def of the file has`);
    const types = Array.isArray(p['type']) ? (p['type'] as string[]) : [String(p['type'] ?? 'string')];
    const kind = typeof p['x-rdx-reference'] === 'string' ? 'reference' : types.some((t) => t === 'integer' || t === 'number') ? 'number' : 'text';
    return { name: String(name), kind };
  });
}
