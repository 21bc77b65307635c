// Values generated from spec/schemas and the parameters of spec/openapi.yaml alone, the way a property-based API
// tester (Schemathesis) reads the document: any value a schema calls valid, edge cases included (empty strings,
// nulls where admitted, optional members left out, odd but legal text and numbers), and values it calls invalid
// (a required member left out, a wrong type, an unknown member, a value outside an enum or a date format).
// A small generator of our own: the maintained ones (json-schema-faker, openapi-sampler) do not read 2020-12's
// `$ref` with sibling `required` across files, and neither makes invalid values.
import { SCHEMA_BASE, baseRef, declaredFormat, loadSchema } from '../../src/spec/index.js';
import type { Rng } from './generate.js';

type Node = Record<string, unknown>;

/** Texts a string field may hold: the schema admits any. */
const TEXTS = ['', ' ', 'x', 'Zoë – ünïcödé ✓', '🙂', 'a/b?c=d&e#f', '"quoted"', 'line\nbreak', '0', 'null', 'x'.repeat(300)];
const NUMBERS = [0, -1, 1, 2.5, 1e9, -0.001, 42];
/** Dates the simulator must take for each format (date-time in several RFC 3339 spellings). */
const VALID_DATES: Readonly<Record<string, readonly string[]>> = {
  date: ['2026-03-01', '2024-02-29', '1999-12-31', '2026-12-31'],
  'date-time': ['2026-03-01T09:00:00Z', '2026-03-01T09:00:00.123456+02:00', '2026-03-01t09:00:00z', '2016-12-31T23:59:60Z', '2026-03-01 09:00:00-05:30'],
};
/** Text no date format admits. */
const INVALID_DATES = ['', 'yesterday', '2026-02-30', '2026-13-01', '01/03/2026', '2026-03-01T25:00:00Z'];

export interface Resolved {
  /** Every property, through $ref chains, with its own schema and the file it lives in. */
  properties: Map<string, { node: Node; file: string }>;
  required: string[];
  closed: boolean;
}

function lookup(uri: string): { file: string; node: Node } {
  const [file = '', pointer = ''] = uri.slice(SCHEMA_BASE.length).split('#');
  let node: unknown = loadSchema(file);
  for (const part of pointer.split('/').filter(Boolean)) node = (node as Node)[part];
  return { file, node: node as Node };
}

function refUri(ref: string, file: string): string {
  return ref.startsWith('#') ? `${SCHEMA_BASE}${file}${ref}` : `${SCHEMA_BASE}${ref}`;
}

/** An object def with its $ref chain merged (2020-12: `required` beside a $ref) and its properties' $refs resolved. */
export function resolveObject(uri: string): Resolved {
  const out: Resolved = { properties: new Map(), required: [], closed: false };
  let current: { file: string; node: Node } | undefined = lookup(uri);
  for (let depth = 0; current && depth < 8; depth++) {
    const file: string = current.file;
    const node: Node = current.node;
    for (const [name, p] of Object.entries((node['properties'] ?? {}) as Record<string, Node>)) {
      // A closed def lists each field as a $ref to its one definition (fields/properties/<name>).
      if (!out.properties.has(name)) out.properties.set(name, typeof p['$ref'] === 'string' ? lookup(refUri(p['$ref'], file)) : { node: p, file });
    }
    out.required.push(...((node['required'] as string[] | undefined) ?? []));
    if (node['unevaluatedProperties'] === false || node['additionalProperties'] === false) out.closed = true;
    const base = baseRef(node);
    current = base !== undefined ? lookup(refUri(base, file)) : undefined;
  }
  out.required = [...new Set(out.required)];
  return out;
}

/** The dates a schema admits by its format, or by each format of an anyOf. */
function validDates(node: Node): string[] {
  const formats = [node, ...((node['anyOf'] as Node[] | undefined) ?? [])].map((n) => n['format']);
  return formats.flatMap((f) => (typeof f === 'string' ? VALID_DATES[f] ?? [] : []));
}

export class SchemaSampler {
  private counter = 0;

  constructor(private readonly rng: Rng) {}

  /** A valid object for a request def. Identity fields (x-rdx-identity) are made unique: the simulator keys records by them. */
  object(uri: string): Node {
    const shape = resolveObject(uri);
    const value: Node = {};
    for (const [name, { node, file }] of shape.properties) {
      if (!shape.required.includes(name) && this.rng.chance(0.4)) continue;
      value[name] = this.value(node, file);
    }
    return value;
  }

  /** A valid value for a property schema. */
  value(node: Node, file: string): unknown {
    if (Array.isArray(node['enum'])) return this.rng.pick(node['enum'] as unknown[]);
    const types = Array.isArray(node['type']) ? (node['type'] as string[]) : [String(node['type'] ?? 'string')];
    const type = this.rng.pick(types);
    switch (type) {
      case 'null':
        return null;
      case 'number':
      case 'integer':
        return this.rng.pick(NUMBERS);
      case 'boolean':
        return this.rng.chance(0.5);
      case 'array': {
        const items = node['items'] as Node | undefined;
        const count = this.rng.int(0, 3);
        return Array.from({ length: count }, () => (typeof items?.['$ref'] === 'string' ? this.object(refUri(items['$ref'], file)) : this.value(items ?? {}, file)));
      }
      default: {
        const dates = validDates(node);
        if (dates.length > 0) return this.rng.pick(dates);
        const text = this.rng.pick(TEXTS);
        return node['x-rdx-identity'] === true ? `${text}#${++this.counter}` : text;
      }
    }
  }

  /** A valid value for a query parameter's schema: text for a string, one or more texts where an array is admitted. */
  parameter(schema: Node): string[] {
    const dates = validDates(schema);
    if (dates.length > 0) return [this.rng.pick(dates)];
    const many = Array.isArray(schema['oneOf']) && (schema['oneOf'] as Node[]).some((s) => s['type'] === 'array');
    return Array.from({ length: many ? this.rng.int(1, 3) : 1 }, () => this.rng.pick(TEXTS));
  }

  /** A value no date format admits. */
  invalidDate(): string {
    return this.rng.pick(INVALID_DATES);
  }

  /**
   * One way a valid object is made invalid, with what was done; undefined when the def admits none of them.
   * Every kind is something the document itself says is not valid.
   */
  spoil(uri: string, valid: Node): { value: unknown; what: string } | undefined {
    const shape = resolveObject(uri);
    const options: (() => { value: unknown; what: string })[] = [];
    for (const name of shape.required) {
      options.push(() => {
        const copy = { ...valid };
        delete copy[name];
        return { value: copy, what: `without required ${name}` };
      });
    }
    if (shape.closed) options.push(() => ({ value: { ...valid, unknown_member: 'x' }, what: 'with an unknown member' }));
    for (const [name, { node }] of shape.properties) {
      const types = Array.isArray(node['type']) ? (node['type'] as string[]) : [String(node['type'] ?? 'string')];
      // A value of the first JSON type the property does not admit.
      const wrong = ([['number', 7], ['string', 'seven'], ['object', { not: 'this' }], ['boolean', true]] as const)
        .find(([type]) => !types.includes(type) && !(type === 'number' && types.includes('integer')));
      if (wrong) options.push(() => ({ value: { ...valid, [name]: wrong[1] }, what: `with ${name} of a wrong type` }));
      if (Array.isArray(node['enum'])) options.push(() => ({ value: { ...valid, [name]: this.rng.pick(['', 'password', 'CLIENT_CREDENTIALS']) }, what: `with ${name} outside its enum` }));
      if (declaredFormat(node)) options.push(() => ({ value: { ...valid, [name]: this.invalidDate() }, what: `with ${name} not a ${declaredFormat(node) ?? ''}` }));
    }
    if (options.length === 0) return undefined;
    return this.rng.pick(options)();
  }
}
