// Bad requests for the simulator, generated from spec/ (operations, schemas, query parameters) with a seeded
// generator: the same seed gives the same requests byte for byte. Every request is wrong in at least one way
// the simulator must refuse, so each carries the statuses a refusal may take and must never write anything.
// Used by simulator/fuzz.test.ts.
import { createFaker, applicationStep, jobOffer, jobOfferAttribute, jobboardActivity, jobboardJobOffer, user, type Faker } from '../../src/data/factories.js';
import { SCHEMA_BASE, baseRef, loadSchema, openApi, operations, type Operation } from '../../src/spec/index.js';
import { rules } from '../../simulator/rules.js';
import type { RawRequest } from './raw.js';

/** What the generator needs to know of the simulator under test. */
export interface FuzzTarget {
  host: string;
  port: number;
  clientId: string;
  clientSecret: string;
  token: string;
  expiredToken: string;
  maxBodyBytes: number;
  /** Existing records, so that some requests are wrong only in their body. */
  jobOfferReferences: readonly string[];
  /** An attribute name that exists on jobOfferReferences[0]. */
  attributeName: string;
  ids: { applicationSteps: readonly number[]; jobboardActivities: readonly number[]; jobboardJobOffers: readonly number[] };
  userMails: readonly string[];
}

export interface FuzzCase {
  /** Which kind of wrong, for the summary and for failure messages. */
  family: string;
  /** A short description of the request, for failure messages. */
  label: string;
  request: RawRequest;
  /** The statuses an answer may have. */
  expect: readonly number[];
}

/** mulberry32: small, fast and good enough to pick test inputs; seeded, so runs repeat. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('fuzz: pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }
}

// --- the spec as the generator reads it ------------------------------------------------------------------------

interface BodyShape {
  properties: Record<string, string[]>;
  required: string[];
  /** Unknown members are refused (unevaluatedProperties or additionalProperties false). */
  closed: boolean;
}

type SchemaNode = Record<string, unknown>;

function defOf(uri: string): { file: string; node: SchemaNode } {
  const [file = '', pointer = ''] = uri.slice(SCHEMA_BASE.length).split('#');
  let node: unknown = loadSchema(file);
  for (const part of pointer.split('/').filter(Boolean)) node = (node as SchemaNode)[part];
  return { file, node: node as SchemaNode };
}

function propertyRef(ref: string, file: string): string {
  return ref.startsWith('#') ? `${SCHEMA_BASE}${file}${ref}` : `${SCHEMA_BASE}${ref}`;
}

/** Properties (with their JSON types), required members and closedness of a request def, through its $refs. */
export function bodyShape(uri: string): BodyShape {
  const shape: BodyShape = { properties: {}, required: [], closed: false };
  let current: { file: string; node: SchemaNode } | undefined = defOf(uri);
  for (let depth = 0; current && depth < 8; depth++) {
    const file: string = current.file;
    const node: SchemaNode = current.node;
    for (const [name, own] of Object.entries((node['properties'] ?? {}) as Record<string, SchemaNode>)) {
      // A closed def lists each field as a $ref to its one definition (fields/properties/<name>).
      const p = typeof own['$ref'] === 'string' ? defOf(propertyRef(own['$ref'], file)).node : own;
      const type = p['type'];
      shape.properties[name] ??= Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : ['string'];
    }
    shape.required.push(...((node['required'] as string[] | undefined) ?? []));
    if (node['unevaluatedProperties'] === false || node['additionalProperties'] === false) shape.closed = true;
    const ref: unknown = baseRef(node);
    current = typeof ref === 'string' ? defOf(ref.startsWith('#') ? `${SCHEMA_BASE}${file}${ref}` : `${SCHEMA_BASE}${ref}`) : undefined;
  }
  shape.required = [...new Set(shape.required)];
  return shape;
}

/** Query parameters of each list operation, from spec/openapi.yaml. */
function queryParameters(op: Operation): string[] {
  const doc = openApi();
  const paths = doc['paths'] as Record<string, Record<string, SchemaNode>>;
  const params = (paths[op.path]?.[op.method.toLowerCase()]?.['parameters'] ?? []) as SchemaNode[];
  const components = (doc['components'] as SchemaNode)['parameters'] as Record<string, SchemaNode>;
  return params
    .map((p) => (typeof p['$ref'] === 'string' ? components[p['$ref'].split('/').pop() ?? ''] : p))
    .filter((p): p is SchemaNode => p?.['in'] === 'query')
    .map((p) => String(p['name']));
}

// --- values ---------------------------------------------------------------------------------------------------

const JSON_TYPES: Readonly<Record<string, unknown>> = {
  string: 'text', number: 42.5, boolean: true, null: null, array: ['text'], object: { text: 'text' },
};

/** A value whose JSON type the field does not admit. */
function wrongValue(rng: Rng, types: readonly string[]): unknown {
  const allowed = new Set(types.flatMap((t) => (t === 'integer' ? ['number'] : [t])));
  const wrong = Object.keys(JSON_TYPES).filter((t) => !allowed.has(t));
  const kind = rng.pick(wrong);
  if (kind === 'string' && rng.chance(0.2)) return 'x'.repeat(rng.int(100_000, 1_000_000));
  if (kind === 'array' && rng.chance(0.2)) return new Array<number>(rng.int(10_000, 100_000)).fill(7);
  // Deeper values are spliced in as text (family shape): JSON.stringify recurses and would overflow here.
  if (kind === 'object' && rng.chance(0.2)) return JSON.parse(`${'{"a":'.repeat(500)}1${'}'.repeat(500)}`) as unknown;
  return JSON_TYPES[kind];
}

/** Text that is not a plain identifier: unicode, controls, quotes, percent signs, very long. */
function oddText(rng: Rng): string {
  return rng.pick([
    () => '💥'.repeat(rng.int(1, 500)),
    () => 'Ω≈ç√∫˜µ≤≥÷ åß∂ƒ©˙∆˚¬ 田中さん 𝕏 ',
    () => '\u0000\u0001\u001f\u007f\u2028\u2029\ufeff\ufffd',
    () => '"\'\\`${}<script>alert(1)</script>',
    () => '%'.repeat(rng.int(1, 100)),
    () => 'a'.repeat(rng.int(1_000, 50_000)),
    () => '../'.repeat(rng.int(1, 50)),
    () => String(rng.next()),
  ])();
}

/** A path segment that names no record (and may not even be valid percent-encoding). */
function absurdId(rng: Rng): { segment: string; malformed: boolean } {
  const choice = rng.int(0, 11);
  switch (choice) {
    case 0: return { segment: 'z'.repeat(rng.int(2_000, 12_000)), malformed: false };
    case 1: return { segment: rng.pick(['%', '%zz', '%E0%A4%A', '%C0%AF', '%ff%fe', 'a%2', '%%%%']), malformed: true };
    case 2: return { segment: encodeURIComponent(oddText(rng)).slice(0, 12_000), malformed: false };
    case 3: return { segment: String(10 ** rng.int(15, 30)).replace('e+', 'e'), malformed: false };
    case 4: return { segment: rng.pick(['0', '-1', '1.5', '1e3', '0x10', '+1', ' 1', '%201', '00001', 'NaN', 'Infinity']), malformed: false };
    case 5: return { segment: rng.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']), malformed: false };
    case 6: return { segment: rng.pick(['..', '.', '%2e%2e', '%2F', '..%2F..%2Fetc%2Fpasswd', '%00']), malformed: false };
    case 7: return { segment: Buffer.from(`JO-ü-${rng.int(0, 999)}`, 'utf8').toString('latin1'), malformed: false };
    case 8: return { segment: `JO-2026-${String(rng.int(900_000, 999_999))}`, malformed: false };
    case 9: return { segment: String(rng.int(10_000_000, 999_999_999)), malformed: false };
    case 10: return { segment: '%ED%A0%80', malformed: true };
    default: return { segment: encodeURIComponent('\uD83D\uDCA5'.repeat(rng.int(1, 200))), malformed: false };
  }
}

// --- building requests ----------------------------------------------------------------------------------------

type Header = readonly [string, string];

interface Draft {
  method: string;
  target: string;
  headers?: Header[];
  body?: Buffer | string;
  /** Leave the framing headers to the draft (it sets Content-Length or Transfer-Encoding itself, or none). */
  framing?: 'auto' | 'none';
  stream?: RawRequest['stream'];
}

function build(target: FuzzTarget, draft: Draft): RawRequest {
  const body = draft.body === undefined ? undefined : Buffer.isBuffer(draft.body) ? draft.body : Buffer.from(draft.body, 'utf8');
  const lines = [`${draft.method} ${draft.target} HTTP/1.1`, `host: ${target.host}:${target.port}`];
  for (const [name, value] of draft.headers ?? []) lines.push(`${name}: ${value}`);
  if ((draft.framing ?? 'auto') === 'auto' && body) lines.push(`content-length: ${body.length}`);
  lines.push('connection: close', '', '');
  return { head: Buffer.from(lines.join('\r\n'), 'latin1'), ...(body ? { body } : {}), ...(draft.stream ? { stream: draft.stream } : {}) };
}

const json = (value: unknown): string => JSON.stringify(value);

export interface Generator {
  /** The next bad request; the sequence depends only on the seed and the target's facts. */
  next(): FuzzCase;
}

export function generator(seed: number, target: FuzzTarget): Generator {
  const rng = new Rng(seed);
  const faker: Faker = createFaker(seed);
  const status = rules().status;
  const ops = operations();
  const byKind = (kinds: readonly string[]): Operation[] => ops.filter((o) => kinds.includes(o.kind));
  const protectedOps = ops.filter((o) => o.kind !== 'token');
  const bodyOps = ops.filter((o) => o.requestSchema && o.kind !== 'token');
  const tokenOp = ops.find((o) => o.kind === 'token') as Operation;
  const listOps = byKind(['list']);
  const idOps = ops.filter((o) => o.path.includes('{'));
  const auth: Header = ['authorization', `Bearer ${target.token}`];
  const jsonType: Header = ['content-type', 'application/json'];

  /** The path of an operation with existing ids (or the given segments). */
  const pathOf = (op: Operation, segments: { id?: string; name?: string } = {}): string => op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'name') return segments.name ?? encodeURIComponent(target.attributeName);
    if (segments.id !== undefined) return segments.id;
    if (op.path.startsWith('/ats/job-offers')) return encodeURIComponent(target.jobOfferReferences[0] ?? 'JO');
    const pool = op.path.startsWith('/ats/application-steps') ? target.ids.applicationSteps
      : op.path.startsWith('/jobboard/activities') ? target.ids.jobboardActivities : target.ids.jobboardJobOffers;
    return String(rng.pick(pool));
  });

  /** A valid item (or body) for a request def. */
  const validItem = (uri: string): Record<string, unknown> => {
    const def = uri.split('#/$defs/')[1] ?? '';
    const file = uri.slice(SCHEMA_BASE.length).split('#')[0] ?? '';
    if (def === 'value-update') return { value: faker.lorem.word() };
    if (def === 'request') return { client_id: target.clientId, client_secret: target.clientSecret, grant_type: 'client_credentials' };
    const make: Record<string, () => object> = {
      'job-offer.json': () => jobOffer(faker),
      'job-offer-attribute.json': () => jobOfferAttribute(faker),
      'application-step.json': () => applicationStep(faker),
      'jobboard-activity.json': () => jobboardActivity(faker),
      'jobboard-job-offer.json': () => jobboardJobOffer(faker),
      'user.json': () => user(faker),
    };
    const item = { ...(make[file]?.() ?? {}) } as Record<string, unknown>;
    if (def === 'patch') {
      for (const key of Object.keys(item)) if (rng.chance(0.5)) delete item[key];
    }
    return item;
  };

  /** One way an item is wrong against its def; undefined when the def admits no such wrong. */
  const spoil = (uri: string, item: Record<string, unknown>, how: 'missing' | 'extra' | 'type'): Record<string, unknown> | undefined => {
    const shape = bodyShape(uri);
    if (how === 'missing') {
      if (shape.required.length === 0) return undefined;
      const copy = { ...item };
      delete copy[rng.pick(shape.required)];
      return copy;
    }
    if (how === 'extra') {
      if (!shape.closed) return undefined;
      const name = rng.chance(0.1) ? `x_${'n'.repeat(rng.int(10_000, 100_000))}` : rng.pick(['id', 'extra', '__proto__', 'constructor', 'Title', 'title ', 'x-rdx', '']);
      if (name in shape.properties) return undefined;
      return { ...item, [name]: rng.chance(0.5) ? oddText(rng) : wrongValue(rng, []) };
    }
    const fields = Object.keys(shape.properties);
    const field = rng.pick(fields);
    return { ...item, [field]: wrongValue(rng, shape.properties[field] ?? ['string']) };
  };

  /** A body for a body operation in which every item is wrong, or undefined when the operation admits none. */
  const badBody = (op: Operation, how: 'missing' | 'extra' | 'type'): unknown => {
    const uri = op.requestSchema as string;
    if (op.requestIsArray) {
      const n = rng.int(1, 5);
      const items: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const bad = spoil(uri, validItem(uri), how);
        if (!bad) return undefined;
        items.push(bad);
      }
      return items;
    }
    return spoil(uri, validItem(uri), how);
  };

  const families: { name: string; weight: number; make: () => FuzzCase | undefined }[] = [
    {
      name: 'auth', weight: 8, make: () => {
        const op = rng.pick(protectedOps);
        const credential = rng.pick<Header[]>([
          [], [['authorization', 'Bearer']], [['authorization', `Bearer ${target.token}x`]], [['authorization', `Bearer ${target.expiredToken}`]],
          [['authorization', `Basic ${Buffer.from(`${target.clientId}:${target.clientSecret}`).toString('base64')}`]],
          [['authorization', `Bearer ${'A'.repeat(rng.int(1_000, 8_000))}`]], [['authorization', `Bearer ${Buffer.from([0xff, 0xfe, 0x80]).toString('latin1')}`]],
          [['authorization', `bearer  ${target.token.slice(1)}`]], [['authorization', `Token ${target.token}`]],
          [['authorization', 'Bearer a'], ['authorization', `Bearer ${target.token}`]],
        ]);
        const query = rng.chance(0.2) ? `?access_token=${target.token}` : '';
        const body = op.requestSchema ? json(op.requestIsArray ? [validItem(op.requestSchema)] : validItem(op.requestSchema)) : undefined;
        return {
          family: 'auth', label: `${op.method} ${op.path} with ${credential.map(([, v]) => v.slice(0, 20)).join(' + ') || 'no token'}${query ? ' and the token in the query' : ''}`,
          request: build(target, { method: op.method, target: `${pathOf(op)}${query}`, headers: [...credential, ...(body ? [jsonType] : [])], ...(body ? { body } : {}) }),
          expect: [status.unauthorized],
        };
      },
    },
    ...(['missing', 'extra', 'type'] as const).map((how) => ({
      name: `${how === 'type' ? 'wrong-type' : `${how}-field`}`, weight: 10, make: (): FuzzCase | undefined => {
        const op = rng.pick(bodyOps);
        const body = badBody(op, how);
        if (body === undefined) return undefined;
        const text = json(body);
        return {
          family: how === 'type' ? 'wrong-type' : `${how}-field`, label: `${op.method} ${op.path} (${text.length} bytes): ${text.slice(0, 80)}`,
          request: build(target, { method: op.method, target: pathOf(op), headers: [auth, jsonType], body: text }),
          expect: text.length > target.maxBodyBytes ? [status.payloadTooLarge] : [status.validation],
        };
      },
    })),
    {
      name: 'token', weight: 6, make: () => {
        const good = validItem(tokenOp.requestSchema as string);
        const variants: [string, string | Buffer, string, number[]][] = [
          ['wrong secret', json({ ...good, client_secret: `${target.clientSecret}x` }), 'application/json', [status.unauthorized]],
          ['wrong id', json({ ...good, client_id: oddText(rng) }), 'application/json', [status.unauthorized]],
          ['missing secret', json({ client_id: target.clientId }), 'application/json', [status.unauthorized]],
          ['secret of a wrong type', json({ ...good, client_secret: wrongValue(rng, ['string']) }), 'application/json', [status.validation]],
          ['unknown grant', json({ ...good, grant_type: oddText(rng) }), 'application/json', [status.validation]],
          ['array', json([good]), 'application/json', [status.validation]],
          ['broken JSON', json(good).slice(0, rng.int(0, 30)), 'application/json', [status.malformedJson, status.validation]],
          // %ff%fe is not UTF-8 once decoded: refused as a bad request, never read as a wrong (U+FFFD) secret.
          ['form, not UTF-8', `client_id=${encodeURIComponent(target.clientId)}&client_secret=%ff%fe${'&x=%'.repeat(rng.int(1, 50))}`, 'application/x-www-form-urlencoded', [status.validation]],
          ['text', json(good), 'text/plain', [status.unsupportedMediaType]],
          ['huge id', json({ ...good, client_id: 'i'.repeat(rng.int(100_000, 2_000_000)) }), 'application/json', [status.unauthorized]],
          ['extra members, wrong secret', json({ ...good, client_secret: 'nope', scope: oddText(rng), [oddText(rng).slice(0, 50)]: 1 }), 'application/json', [status.unauthorized]],
        ];
        const [what, body, type, expect] = rng.pick(variants);
        return {
          family: 'token', label: `POST ${tokenOp.path}: ${what}`,
          request: build(target, { method: 'POST', target: tokenOp.path, headers: [['content-type', type]], body }),
          expect,
        };
      },
    },
    {
      name: 'content-type', weight: 6, make: () => {
        const op = rng.pick([...bodyOps, tokenOp]);
        const body = json(op.requestIsArray ? [validItem(op.requestSchema as string)] : validItem(op.requestSchema as string));
        // A header value cannot carry control characters, so the odd text is folded to '?' first.
        const type = rng.pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/json-patch+json',
          // eslint-disable-next-line no-control-regex
          'text/json', 'application/*', '*/*', ';application/json', 'application/ json', 'json', oddText(rng).slice(0, 200).replace(/[\r\n\u0000-\u001f\u007f-\uffff]/g, '?'),
          ...(op.kind === 'token' ? [] : ['application/x-www-form-urlencoded']), '']);
        const headers: Header[] = [...(op.kind === 'token' ? [] : [auth]), ...(type === '' ? [] : [['content-type', type] as const])];
        return {
          family: 'content-type', label: `${op.method} ${op.path} as ${JSON.stringify(type)}`,
          request: build(target, { method: op.method, target: pathOf(op), headers, body }),
          expect: [status.unsupportedMediaType],
        };
      },
    },
    {
      name: 'broken-json', weight: 8, make: () => {
        const op = rng.pick(bodyOps);
        const valid = json(op.requestIsArray ? Array.from({ length: 2 }, () => validItem(op.requestSchema as string)) : validItem(op.requestSchema as string));
        const body = rng.pick<() => string | Buffer>([
          () => valid.slice(0, rng.int(1, valid.length - 1)),
          () => `${valid.slice(0, -1)},}`,
          () => valid.replace(/"/g, "'"),
          () => `\ufeff${valid}`,
          () => `${valid}${valid}`,
          () => '{"a":}',
          () => '[NaN]',
          () => '[01]',
          () => '{"a":1,}',
          () => rng.bytes(rng.int(1, 2_000)),
          // Invalid UTF-8 inside a string decodes to U+FFFD and could leave valid JSON: the end is cut off as well.
          () => Buffer.concat([Buffer.from(valid.slice(0, 20)), Buffer.from('c328a0a1f0288cbc', 'hex'), Buffer.from(valid.slice(20, -1))]),
          () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(valid)]),
          () => `${'['.repeat(rng.int(1_000, 100_000))}`,
          () => `${'{"a":'.repeat(rng.int(1_000, 50_000))}1`,
          () => ' '.repeat(rng.int(1, 5_000)),
          () => '\u0000',
        ])();
        const length = Buffer.byteLength(body);
        return {
          family: 'broken-json', label: `${op.method} ${op.path} with ${length} bytes of broken JSON`,
          request: build(target, { method: op.method, target: pathOf(op), headers: [auth, jsonType], body }),
          expect: [status.malformedJson, status.validation],
        };
      },
    },
    {
      name: 'shape', weight: 6, make: () => {
        const op = rng.pick(bodyOps);
        const depth = rng.int(1_000, 100_000);
        const body = op.requestIsArray
          ? rng.pick<() => string>([
            () => json(validItem(op.requestSchema as string)),
            () => json(oddText(rng)),
            () => String(rng.int(-1e9, 1e9)),
            () => 'null',
            () => `[${new Array<string>(rng.int(1_000, 20_000)).fill('0').join(',')}]`,
            () => `[${new Array<string>(rng.int(100, 2_000)).fill('[]').join(',')}]`,
            () => `${'['.repeat(depth)}${']'.repeat(depth)}`,
            () => json([null, true, 'x', 1, []]),
          ])()
          : rng.pick<() => string>([
            () => json([validItem(op.requestSchema as string)]),
            () => 'null',
            () => '"text"',
            () => `${'['.repeat(depth)}${']'.repeat(depth)}`,
            () => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
            () => {
              // Spliced as text: JSON.stringify of a value this deep would overflow the generator's own stack.
              const field = rng.pick(Object.keys(bodyShape(op.requestSchema as string).properties));
              const item = validItem(op.requestSchema as string);
              // JSON keeps the last of two equal members, so the field must not come again with a valid value.
              delete item[field];
              const rest = json(item).slice(1);
              return `{${json(field)}:${'['.repeat(depth)}${']'.repeat(depth)}${rest === '}' ? '}' : `,${rest}`}`;
            },
          ])();
        return {
          family: 'shape', label: `${op.method} ${op.path}: ${body.length} bytes starting ${body.slice(0, 40)}`,
          request: build(target, { method: op.method, target: pathOf(op), headers: [auth, jsonType], body }),
          expect: [status.validation],
        };
      },
    },
    {
      name: 'oversize', weight: 1, make: () => {
        const op = rng.chance(0.1) ? tokenOp : rng.pick(bodyOps);
        const headers: Header[] = [...(op.kind === 'token' ? [] : [auth]), jsonType];
        const way = rng.int(0, 2);
        const over = target.maxBodyBytes + rng.int(1, 1024 * 1024);
        if (way === 0) {
          // The length alone is enough to refuse: the body is never sent.
          return {
            family: 'oversize', label: `${op.method} ${op.path} declaring ${over} bytes`,
            request: build(target, { method: op.method, target: pathOf(op), headers: [...headers, ['content-length', String(over)]], framing: 'none' }),
            expect: [status.payloadTooLarge],
          };
        }
        const chunked = way === 1;
        return {
          family: 'oversize', label: `${op.method} ${op.path} streaming ${over} bytes${chunked ? ' chunked' : ''}`,
          request: build(target, {
            method: op.method, target: pathOf(op), framing: 'none',
            headers: [...headers, chunked ? ['transfer-encoding', 'chunked'] : ['content-length', String(over)]],
            stream: { piece: Buffer.from(`[${'0,'.repeat(32 * 1024)}`.slice(0, 64 * 1024)), total: over, chunked },
          }),
          expect: [status.payloadTooLarge],
        };
      },
    },
    {
      name: 'unknown-id', weight: 8, make: () => {
        const op = rng.pick(idOps);
        const { segment, malformed } = absurdId(rng);
        const onName = op.path.includes('{name}') && rng.chance(0.5);
        const path = pathOf(op, onName ? { name: segment } : { id: segment });
        const body = op.requestSchema ? json(op.requestIsArray ? [validItem(op.requestSchema)] : validItem(op.requestSchema)) : undefined;
        return {
          family: 'unknown-id', label: `${op.method} ${path.slice(0, 80)}${path.length > 80 ? `… (${path.length} chars)` : ''}`,
          request: build(target, { method: op.method, target: path, headers: [auth, ...(body ? [jsonType] : [])], ...(body ? { body } : {}) }),
          // Broken percent-encoding is refused (400); anything else names nothing (404) or is refused by the parser.
          expect: malformed ? [status.validation] : [status.notFound, status.validation],
        };
      },
    },
    {
      name: 'query', weight: 8, make: () => {
        const op = rng.pick(listOps);
        const names = queryParameters(op);
        const dates = names.filter((n) => n.includes('date'));
        const singles = [...dates, ...names.filter((n) => n === 'status'), 'cursor'];
        const wrong = rng.int(0, 3);
        const bad: string[] = [];
        if (wrong === 0 && dates.length > 0) {
          bad.push(`${rng.pick(dates)}=${encodeURIComponent(rng.pick(['yesterday', '2026-13-01', '2026-02-30', '2026-1-1', '20260101', '2026-03-01T25:00:00Z',
            '2026-03-01T09:00:00+24:00', '', '-1', '1e400', '275760-09-14', '0000-00-00', oddText(rng).slice(0, 200)]))}`);
        } else if (wrong === 1 || (wrong === 0 && dates.length === 0)) {
          bad.push(`cursor=${rng.pick([
            encodeURIComponent(oddText(rng).slice(0, 200)), Buffer.from('after:-1').toString('base64url'), Buffer.from('after:1234567890123456').toString('base64url'),
            Buffer.from('before:1').toString('base64url'), '%ZZ', '=', Buffer.from(rng.bytes(30)).toString('base64url'),
          ])}`);
        } else if (wrong === 2) {
          const name = rng.pick(singles);
          const value = name === 'cursor' ? Buffer.from('after:1').toString('base64url') : name.includes('date') ? '2026-03-01' : 'viewed';
          bad.push(`${name}=${value}`, `${name}=${value}`);
        } else {
          bad.push(`access_token=${target.token}`);
        }
        // Junk members around the wrong one, within a budget that keeps the request under Node's 16 KiB header limit.
        const junk: string[] = [];
        let budget = rng.chance(0.3) ? rng.int(100, 10_000) : 0;
        for (let i = 0; budget > 0 && i < 2_000; i++) {
          const member = `x_${i}=${encodeURIComponent(oddText(rng).slice(0, 40))}`;
          budget -= member.length + 1;
          junk.push(member);
        }
        const cut = rng.int(0, junk.length);
        const query = [...junk.slice(0, cut), ...bad, ...junk.slice(cut)].join('&');
        const withAuth = wrong !== 3;
        return {
          family: 'query', label: `GET ${op.path}?${bad.join('&').slice(0, 100)} among ${junk.length} junk members (${query.length} chars)`,
          request: build(target, { method: 'GET', target: `${op.path}?${query}`, headers: withAuth ? [auth] : [] }),
          expect: withAuth ? [status.validation] : [status.unauthorized],
        };
      },
    },
    {
      name: 'route', weight: 5, make: () => {
        const op = rng.pick(ops);
        const allowed: string[] = ops.filter((o) => o.path === op.path).map((o) => o.method);
        const knownMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'MKCOL', 'SEARCH', 'QUERY', 'LINK', 'PURGE'];
        const others = knownMethods.filter((m) => !allowed.includes(m));
        if (rng.chance(0.5)) {
          const method = rng.pick(others);
          return {
            family: 'route', label: `${method} ${op.path}`,
            request: build(target, { method, target: pathOf(op), headers: [auth] }),
            // QUERY and some WebDAV methods are unknown to Node's parser: refused before routing.
            expect: [status.methodNotAllowed, 400],
          };
        }
        const path = rng.pick([
          '/', '//ats/job-offers', '/ats', '/ats/', '/ats/job-offers/', '/ATS/JOB-OFFERS', `${op.path.replace(/\{\w+\}/g, '1')}/extra`, '/ats/job-offers/JO/attributes/a/b',
          '/users/1', '/oauth2', '/oauth2/token/', '/jobboard', `/${'a/'.repeat(rng.int(10, 2_000))}`, '/ats/job-offers;jsessionid=1', '/%2e%2e/%2e%2e/etc/passwd',
          '/__admin', '/__admin/../ats/job-offers', '/favicon.ico', '/.env', '/ats/job-offers%00', '/?', '/ats/job-offers/%',
        ]);
        return {
          family: 'route', label: `GET ${path.slice(0, 80)}`,
          request: build(target, { method: 'GET', target: path, headers: [auth] }),
          expect: [status.notFound, status.validation, status.methodNotAllowed],
        };
      },
    },
    {
      name: 'headers', weight: 6, make: () => {
        const op = rng.pick(bodyOps);
        // Where a header is refused before the body is read a valid body shows that the header alone is enough;
        // elsewhere the body is broken too, so a server that tolerates the header still has to refuse.
        const valid = json(op.requestIsArray ? [validItem(op.requestSchema as string)] : validItem(op.requestSchema as string));
        const broken = valid.slice(0, -1);
        const length = Buffer.byteLength(broken);
        const variants: [string, Header[], number[], Draft['framing']][] = [
          ['two different lengths', [auth, jsonType, ['content-length', String(length)], ['content-length', String(length + 1)]], [400], 'none'],
          ['length and chunked', [auth, jsonType, ['content-length', String(length)], ['transfer-encoding', 'chunked']], [400], 'none'],
          ['negative length', [auth, jsonType, ['content-length', '-1']], [400], 'none'],
          ['length not a number', [auth, jsonType, ['content-length', 'ten']], [400], 'none'],
          ['a wrong type before the right one', [auth, ['content-type', 'text/plain'], jsonType], [status.unsupportedMediaType], 'auto'],
          ['a bad token before the good one', [['authorization', 'Bearer nope'], auth, jsonType], [status.unauthorized], 'auto'],
          ['a header over 16 KiB', [auth, jsonType, ['x-fill', 'f'.repeat(rng.int(17_000, 40_000))]], [431], 'auto'],
          ['hundreds of headers', [auth, jsonType, ...Array.from({ length: rng.int(300, 2_000) }, (_, i): Header => [`x-h${i}`, 'v'.repeat(20)])], [431, status.malformedJson], 'auto'],
          ['a space in a header name', [auth, jsonType, ['bad name', 'x']], [400], 'auto'],
          ['a control byte in a value', [auth, jsonType, ['x-bad', 'a\u0001b']], [400], 'auto'],
          ['a folded header', [auth, jsonType, ['x-fold', 'a\r\n b']], [400], 'auto'],
          ['an unknown expectation', [auth, jsonType, ['expect', oddText(rng).slice(0, 50).replace(/[^\x20-\x7e]/g, '?') || 'x']], [417], 'auto'],
          ['an unknown transfer coding', [auth, jsonType, ['transfer-encoding', 'gzip']], [400, 501], 'none'],
        ];
        const [what, headers, expect, framing] = rng.pick(variants);
        const body = expect.includes(status.unsupportedMediaType) || expect.includes(status.unauthorized) ? valid : broken;
        return {
          family: 'headers', label: `${op.method} ${op.path} with ${what}`,
          request: build(target, { method: op.method, target: pathOf(op), headers, body, framing }), expect,
        };
      },
    },
    {
      name: 'protocol', weight: 3, make: () => {
        const variants: [string, () => Buffer, number[]][] = [
          ['random bytes', () => Buffer.concat([rng.bytes(rng.int(1, 4_000)), Buffer.from('\r\n\r\n')]), [400]],
          ['HTTP/2 preface', () => Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), [400, 505]],
          ['an unknown version', () => Buffer.from('GET /ats/job-offers HTTP/9.9\r\nhost: x\r\n\r\n'), [400, 505]],
          ['a lower-case method', () => Buffer.from('get /ats/job-offers HTTP/1.1\r\nhost: x\r\n\r\n'), [400]],
          ['no target', () => Buffer.from('GET HTTP/1.1\r\nhost: x\r\n\r\n'), [400]],
          ['bare LF line ends', () => Buffer.from('GET /ats/job-offers HTTP/1.1\nhost: x\n\n'), [400, status.unauthorized]],
          ['broken chunks', () => Buffer.from(`POST /ats/job-offers HTTP/1.1\r\nhost: x\r\n${auth[0]}: ${auth[1]}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n[]\r\n0\r\n\r\n`), [400]],
          ['a chunk longer than said', () => Buffer.from(`POST /ats/job-offers HTTP/1.1\r\nhost: x\r\n${auth[0]}: ${auth[1]}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n1\r\n[]]\r\n0\r\n\r\n`), [400]],
          ['a request line of 20 KB', () => Buffer.from(`GET /${'q'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`), [431, 414, 400]],
          ['CONNECT', () => Buffer.from(`CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nhost: x\r\n\r\n`), [status.methodNotAllowed, 400]],
          ['absolute-form target', () => Buffer.from('GET http://example.com/ats/job-offers HTTP/1.1\r\nhost: example.com\r\nconnection: close\r\n\r\n'), [status.notFound, status.unauthorized]],
        ];
        const [what, bytes, expect] = rng.pick(variants);
        return { family: 'protocol', label: what, request: { head: bytes() }, expect };
      },
    },
    {
      name: 'conflict', weight: 4, make: () => {
        const refs = target.jobOfferReferences;
        const choice = rng.int(0, 3);
        const offers = ops.find((o) => o.operationId === 'batchCreateJobOffers') as Operation;
        if (choice === 0) {
          const items = Array.from({ length: rng.int(1, 4) }, () => jobOffer(faker, { reference: rng.pick(refs) }));
          return {
            family: 'conflict', label: `POST ${offers.path} with existing references`,
            request: build(target, { method: 'POST', target: offers.path, headers: [auth, jsonType], body: json(items) }), expect: [status.validation],
          };
        }
        if (choice === 1) {
          const [a = '', b = ''] = [refs[0], refs[1 + rng.int(0, refs.length - 2)]];
          const patch = rng.chance(0.5);
          const body = patch ? { reference: b } : jobOffer(faker, { reference: b });
          return {
            family: 'conflict', label: `${patch ? 'PATCH' : 'PUT'} /ats/job-offers/${a} taking the reference ${b}`,
            request: build(target, { method: patch ? 'PATCH' : 'PUT', target: `/ats/job-offers/${encodeURIComponent(a)}`, headers: [auth, jsonType], body: json(body) }),
            expect: [status.conflict],
          };
        }
        if (choice === 2) {
          const items = [{ name: target.attributeName, value: 'again' }];
          return {
            family: 'conflict', label: `POST attributes with the existing name ${target.attributeName}`,
            request: build(target, { method: 'POST', target: `/ats/job-offers/${encodeURIComponent(refs[0] ?? '')}/attributes`, headers: [auth, jsonType], body: json(items) }),
            expect: [status.validation],
          };
        }
        const mail = rng.pick(target.userMails);
        const users = [user(faker, { mail }), user(faker), user(faker, { mail })];
        return {
          family: 'conflict', label: 'PUT /users naming one mail twice',
          request: build(target, { method: 'PUT', target: '/users', headers: [auth, jsonType], body: json(users) }), expect: [status.validation],
        };
      },
    },
    {
      name: 'admin', weight: 2, make: () => {
        const variants: [string, Draft, number[]][] = [
          ['reseed with broken JSON', { method: 'POST', target: '/__admin/reseed', headers: [jsonType], body: '{"seed":' }, [status.malformedJson]],
          ['reseed with an array', { method: 'POST', target: '/__admin/reseed', headers: [jsonType], body: '[1]' }, [status.validation]],
          ['reseed with too many records', { method: 'POST', target: '/__admin/reseed', headers: [jsonType], body: json({ records: 10 ** rng.int(7, 20) }) }, [status.validation]],
          ['reseed with a negative seed', { method: 'POST', target: '/__admin/reseed', headers: [jsonType], body: json({ seed: -rng.int(1, 1e6) }) }, [status.validation]],
          ['reseed with a text seed', { method: 'POST', target: '/__admin/reseed', headers: [jsonType], body: json({ seed: oddText(rng).slice(0, 100) }) }, [status.validation]],
          ['reseed declaring a huge body', { method: 'POST', target: '/__admin/reseed', headers: [jsonType, ['content-length', String(target.maxBodyBytes + 1)]], framing: 'none' }, [status.payloadTooLarge]],
          ['journal with a bad limit', { method: 'GET', target: `/__admin/journal?limit=${encodeURIComponent(rng.pick(['-1', 'abc', '1.5', '1e400', oddText(rng).slice(0, 100)]))}` }, [status.validation]],
          ['a wrong method', { method: rng.pick(['GET', 'PUT', 'DELETE']), target: '/__admin/reset' }, [status.methodNotAllowed]],
          ['an unknown admin path', { method: rng.pick(['GET', 'POST']), target: `/__admin/${rng.pick(['__proto__', 'constructor', 'toString', 'valueOf', 'nope', 'health/x', encodeURIComponent(oddText(rng).slice(0, 200))])}` }, [status.notFound]],
        ];
        const [what, draft, expect] = rng.pick(variants);
        return { family: 'admin', label: what, request: build(target, draft), expect };
      },
    },
  ];

  const total = families.reduce((n, f) => n + f.weight, 0);
  return {
    next(): FuzzCase {
      // A family may decline (no such wrong for the chosen operation): draw again, a bounded number of times.
      for (let attempt = 0; attempt < 100; attempt++) {
        let roll = rng.next() * total;
        const family = families.find((f) => (roll -= f.weight) < 0) ?? (families[0] as (typeof families)[number]);
        const made = family.make();
        if (made) return made;
      }
      throw new Error('fuzz: no family produced a request in 100 draws');
    },
  };
}
