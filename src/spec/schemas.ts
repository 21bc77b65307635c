// The JSON Schemas of spec/schemas: one ajv registry (or the build's precompiled validators) and their errors.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv2020, ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv/dist/2020.js';
import { loadSchema, schemaFiles, specDir } from './files.js';

// ajv is loaded when first needed (CommonJS, and a large part of the simulator's start-up).
const require = createRequire(import.meta.url);

/**
 * A new ajv (JSON Schema 2020-12), ajv loaded on this first call: most processes compile nothing (the build's
 * validators, the build's parsed suites, no config file), and loading ajv took 80 to 100 ms of every `rdx run`.
 */
export function newAjv(options: AjvOptions): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new Ajv(options);
}

export const SCHEMA_BASE = 'https://schemas.rdx-conformance.dev/';

/** An OpenAPI ref such as './schemas/job-offer.json#/$defs/create' as the schema URI ajv knows it by. */
export function schemaUri(ref: string): string {
  return SCHEMA_BASE + ref.replace(/^\.\/schemas\//, '');
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
 * which compiles them all into validators/<schema file>.cjs (scripts/bundle.mjs).
 */
export function newSchemaRegistry(code?: { source: true }): Ajv2020 {
  // strictTypes and strictRequired off: our defs add `required` beside a `$ref` to an object schema, sound in 2020-12.
  // validateFormats off: `format` is an annotation here, as JSON Schema 2020-12 makes it by default (see declaredFormat).
  // validateSchema off: checking our schemas against the 2020-12 meta-schema compiled that meta-schema on every start;
  // openapi.test.ts checks them against it instead.
  const ajv = newAjv({
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

/** SHA-256 over spec/schemas in name order: which schemas the build's validators were compiled from. */
export function schemasHash(): string {
  const hash = createHash('sha256');
  for (const file of schemaFiles()) hash.update(file).update('\0').update(readFileSync(join(specDir, 'schemas', file))).update('\0');
  return hash.digest('hex');
}

/**
 * Folder (beside this module) of the validators the build compiles: one module per schema file (token.json's in
 * token.cjs), each holding the definitions of that file, so the first answer loads only what it validates (the token
 * request: 6 KB of the 176).
 */
export const PRECOMPILED_VALIDATORS = 'validators';

/** The precompiled module of a schema file (job-offer.json → validators/job-offer.cjs). */
export const precompiledModule = (file: string): string => `${PRECOMPILED_VALIDATORS}/${file.replace(/\.json$/, '')}.cjs`;

type Precompiled = Record<string, ValidateFunction | string>;
const precompiledCache = new Map<string, Precompiled | null>();
/** schemasHash() of the schemas as this process found them (read once). */
let hashNow: string | undefined;
/**
 * The build's ahead-of-time compiled validators of a schema file (ajv standalone code), when they were compiled from
 * the schemas in spec/ now: loading them skips loading and running ajv's compiler, which was most of the simulator's
 * first answer (60 to 90 ms). Missing or stale (schemas edited after the build), the registry compiles as before.
 */
function precompiled(file: string): Precompiled | null {
  const known = precompiledCache.get(file);
  if (known !== undefined) return known;
  let found: Precompiled | null = null;
  if (schemaFiles().includes(file)) {
    try {
      const module = require(`./${precompiledModule(file)}`) as Precompiled;
      hashNow ??= schemasHash();
      if (module['schemasHash'] === hashNow) found = module;
    } catch {
      // Not built (running from a partial build): compile on demand.
    }
  }
  precompiledCache.set(file, found);
  return found;
}

/** The build's compiled validator of a schema URI; undefined when there is none for the schemas as they are now. */
export function precompiledValidator(uri: string): ValidateFunction | undefined {
  if (!uri.startsWith(SCHEMA_BASE)) return undefined;
  const file = uri.slice(SCHEMA_BASE.length).split('#')[0] ?? '';
  const ready = precompiled(file)?.[uri];
  return typeof ready === 'function' ? ready : undefined;
}

/** Validators by schema URI, each found once: a 10-item batch asks for its item schema's ten times. */
const validators = new Map<string, ValidateFunction>();

export function validator(uri: string): ValidateFunction {
  const known = validators.get(uri);
  if (known) return known;
  const fn = precompiledValidator(uri) ?? schemaRegistry().getSchema(uri);
  if (!fn) throw new Error(`rdx: no schema ${uri} in spec/schemas`);
  validators.set(uri, fn);
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
  const ref = baseRef(node);
  const props = Object.values((node['properties'] ?? {}) as Record<string, Record<string, unknown>>);
  const result = typeof ref === 'string' && ref.startsWith('#/$defs/') && node['properties'] === undefined
    ? listsFields(`${SCHEMA_BASE}${file}${ref}`)
    : node['additionalProperties'] === false && props.length > 0
      && props.every((p) => typeof p['$ref'] === 'string' && p['$ref'].startsWith('#/$defs/fields/properties/'));
  listsFieldsCache.set(uri, result);
  return result;
}

/**
 * The def a def builds on: its `$ref`, or the one `$ref` of `allOf: [{ $ref }]`, the form every OpenAPI tool reads
 * the same (a `$ref` beside `properties` is legal 2020-12, but some tools let the siblings replace what it refers to).
 */
export function baseRef(node: Record<string, unknown>): string | undefined {
  if (typeof node['$ref'] === 'string') return node['$ref'];
  const all = node['allOf'];
  const only = Array.isArray(all) && all.length === 1 ? (all[0] as Record<string, unknown> | undefined) : undefined;
  return typeof only?.['$ref'] === 'string' ? only['$ref'] : undefined;
}

/**
 * The validation of values against one schema URI, its validator looked up once (a list page of 20,000 records asks
 * for it 20,000 times): a value's problems, in the order schemaErrors shows them; empty when valid.
 */
export function schemaValidation(uri: string): (value: unknown) => ErrorObject[] {
  const fn = validator(uri);
  return (value) => {
    if (fn(value)) return [];
    const errors = fn.errors ?? [];
    // ajv reports a closed def's own `required` and unknown members before its fields' problems; the composition it
    // replaced reported the fields' first. The problems keep the order they always had (the body's own last).
    if (!listsFields(uri)) return errors;
    return [...errors.filter((e) => e.instancePath !== ''), ...errors.filter((e) => e.instancePath === '')];
  };
}

/** Validation errors of a value against a schema URI, as short "path: message" lines; empty when valid. */
export function schemaErrors(uri: string, value: unknown): string[] {
  return schemaValidation(uri)(value).map(formatError);
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
