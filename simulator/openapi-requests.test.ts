// The OpenAPI document says what the simulator enforces: for each of the 21 operations, requests generated from
// spec/openapi.yaml and spec/schemas alone (fuzz/from-schema.ts) are accepted when the document calls them valid
// (2xx, records as the schemas describe them) and refused when it calls them invalid (4xx with the error body,
// nothing written). Preconditions no schema can state are met the way a tester configures them: the simulator's
// credentials, and ids and attribute names of records that exist (each used once, since requests change them).
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { SCHEMA_BASE, openApi, operations, schemaErrors, type Operation } from '../src/spec/index.js';
import { Rng } from '../test/fuzz/generate.js';
import { SchemaSampler } from '../test/fuzz/from-schema.js';
import { startTest, type Harness, type Reply } from '../test/support/simulator.js';

const SEED = 17;
const VALID_PER_OPERATION = 12;
const INVALID_PER_OPERATION = 8;
const ERROR_ENVELOPE = `${SCHEMA_BASE}envelope.json#/$defs/error`;

type Node = Record<string, unknown>;

/** The query parameters of an operation, from spec/openapi.yaml (components resolved). */
function queryParameters(op: Operation): { name: string; schema: Node }[] {
  const doc = openApi();
  const item = (doc['paths'] as Record<string, Record<string, Node>>)[op.path] ?? {};
  const components = ((doc['components'] as Node)['parameters'] ?? {}) as Record<string, Node>;
  const list = [...((item['parameters'] ?? []) as unknown as Node[]), ...((item[op.method.toLowerCase()]?.['parameters'] ?? []) as Node[])];
  return list
    .map((p) => (typeof p['$ref'] === 'string' ? components[p['$ref'].split('/').pop() ?? ''] ?? {} : p))
    .filter((p) => p['in'] === 'query')
    .map((p) => ({ name: String(p['name']), schema: (p['schema'] ?? {}) as Node }));
}

function digest(t: Harness): string {
  return createHash('sha256').update(JSON.stringify(t.store.dump())).digest('hex');
}

describe('simulator: requests generated from the OpenAPI document', function () {
  this.timeout(120_000);
  let t: Harness;
  const rng = new Rng(SEED);
  const sample = new SchemaSampler(rng);
  /** Records no earlier request has touched, so a valid request never meets one changed or deleted before. */
  let offers: string[];
  let offersWithAttributes: { reference: string; name: string }[];
  let ids: Record<string, number[]>;

  before(async () => {
    t = await startTest({ records: 2000 });
    const { store } = t;
    const all = store.jobOffers.values();
    offersWithAttributes = all.filter((o) => (o.attributes ?? []).length > 0).map((o) => ({ reference: o.reference, name: (o.attributes ?? [])[0]?.name ?? '' }));
    const taken = new Set(offersWithAttributes.map((o) => o.reference));
    offers = all.map((o) => o.reference).filter((r) => !taken.has(r));
    ids = {
      '/ats/application-steps': store.applicationSteps.values().map((r) => r.id),
      '/jobboard/activities': store.jobboardActivities.values().map((r) => r.id),
      '/jobboard/job-offers': store.jobboardJobOffers.values().map((r) => r.id),
    };
  });
  after(() => t.close());

  const take = <T>(pool: T[], what: string): T => {
    const next = pool.shift();
    if (next === undefined) throw new Error(`the test ran out of ${what}: seed more records`);
    return next;
  };

  /** The path with existing records for its parameters. */
  function pathOf(op: Operation): string {
    if (op.path.includes('{name}')) {
      const { reference, name } = take(offersWithAttributes, 'job offers with attributes');
      return op.path.replace('{id}', encodeURIComponent(reference)).replace('{name}', encodeURIComponent(name));
    }
    if (op.path.startsWith('/ats/job-offers/{id}')) return op.path.replace('{id}', encodeURIComponent(take(offers, 'job offers')));
    const base = Object.keys(ids).find((b) => op.path.startsWith(`${b}/{id}`));
    return base ? op.path.replace('{id}', String(take(ids[base] as number[], base))) : op.path;
  }

  function validQuery(op: Operation): string {
    const query = new URLSearchParams();
    for (const { name, schema } of queryParameters(op)) {
      if (rng.chance(0.5)) for (const value of sample.parameter(schema)) query.append(name, value);
    }
    const text = query.toString();
    return text === '' ? '' : `?${text}`;
  }

  function validBody(op: Operation): unknown {
    if (!op.requestSchema) return undefined;
    if (op.kind === 'token') {
      const body = sample.object(op.requestSchema);
      // The simulator's credentials: what a tester configures, since no schema can say them.
      return { ...body, client_id: t.sim.options.clientId, client_secret: t.sim.options.clientSecret };
    }
    if (op.requestIsArray) return Array.from({ length: rng.int(op.kind === 'batchCreate' ? 1 : 0, 4) }, () => sample.object(op.requestSchema as string));
    return sample.object(op.requestSchema);
  }

  async function send(op: Operation, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return t.client.send(op.method, path, { ...(body === undefined ? {} : { body }), headers, anonymous: op.kind === 'token' });
  }

  for (const op of operations()) {
    it(`${op.endpoint} ${op.operationId}: accepts ${VALID_PER_OPERATION} valid requests and refuses ${INVALID_PER_OPERATION} invalid ones`, async () => {
      for (let i = 0; i < VALID_PER_OPERATION; i++) {
        const path = `${pathOf(op)}${op.kind === 'list' ? validQuery(op) : ''}`;
        const body = validBody(op);
        const res = await send(op, path, body);
        const sent = `${op.method} ${path} ${JSON.stringify(body)?.slice(0, 400) ?? ''}`;
        expect(res.status, `${sent}\n→ ${res.text.slice(0, 400)}`).to.be.within(200, 299);
        const records = op.kind === 'usersReplace' ? (res.body.data ?? []).flat() : res.body.data ?? [];
        if (op.recordSchema && op.kind !== 'attributeUpdate') {
          for (const record of records) expect(schemaErrors(op.recordSchema, record), `${sent}: a record of the answer`).to.deep.equal([]);
        }
      }
      for (let i = 0; i < INVALID_PER_OPERATION; i++) {
        const path = pathOf(op);
        const valid = validBody(op);
        let body = valid;
        let headers: Record<string, string> = {};
        let what = 'without a bearer token';
        const spoiled = op.requestSchema
          ? sample.spoil(op.requestSchema, (op.requestIsArray ? (valid as Node[])[0] ?? sample.object(op.requestSchema) : valid) as Node)
          : undefined;
        const dateParameters = queryParameters(op).filter((p) => Array.isArray(p.schema['anyOf']));
        let query = '';
        if (spoiled && (i % 4 !== 0 || op.kind === 'token')) {
          body = op.requestIsArray ? [spoiled.value] : spoiled.value;
          what = spoiled.what;
        } else if (dateParameters.length > 0 && i % 2 === 1) {
          const { name } = rng.pick(dateParameters);
          query = `?${new URLSearchParams({ [name]: sample.invalidDate() }).toString()}`;
          what = `with ${name} not a date`;
        } else if (op.kind !== 'token') {
          headers = { authorization: rng.pick(['Bearer not-a-token', 'Basic eDp5', 'Bearer ']) };
          what = `with authorization ${headers['authorization'] ?? ''}`;
        }
        const before = digest(t);
        const res = await send(op, `${path}${query}`, body, headers);
        const sent = `${op.method} ${path}${query} ${what}: ${JSON.stringify(body)?.slice(0, 300) ?? ''}`;
        expect(res.status, `${sent}\n→ ${res.text.slice(0, 300)}`).to.be.within(400, 499);
        expect(schemaErrors(ERROR_ENVELOPE, res.body), `${sent}: the error body`).to.deep.equal([]);
        expect(digest(t), `${sent}: nothing written`).to.equal(before);
      }
    });
  }

  it('covers all 21 operations of the document', () => {
    expect(operations().map((o) => o.endpoint)).to.deep.equal(Array.from({ length: 21 }, (_, i) => i + 1));
  });
});
