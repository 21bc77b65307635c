// Checks spec/openapi.yaml: valid OpenAPI 3.1, the 21 endpoints of the spec's
// Summary table with the vendor extensions our code reads, and every reference
// into ./schemas/ resolving to an existing definition.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { parse } from 'yaml';
import { loadSchema, schemaFiles } from './index.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The test runs from dist/, so the package root is found rather than assumed.
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the test file');
    dir = parent;
  }
  return dir;
}

const root = packageRoot();
const specDir = join(root, 'spec');
const openapiPath = join(specDir, 'openapi.yaml');
const schemasDir = join(specDir, 'schemas');

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const KINDS = [
  'token', 'batchCreate', 'list', 'get', 'replace', 'patch', 'attributeUpdate', 'delete', 'usersReplace',
];
const RESOURCES = [
  'job-offer', 'job-offer-attribute', 'application-step', 'jobboard-activity', 'jobboard-job-offer', 'user', 'token',
];

// The spec's Summary table, in its order: [operationId, method, path].
const SUMMARY: ReadonlyArray<readonly [string, string, string]> = [
  ['requestToken', 'post', '/oauth2/token'],
  ['batchCreateJobOffers', 'post', '/ats/job-offers'],
  ['listJobOffers', 'get', '/ats/job-offers'],
  ['getJobOffer', 'get', '/ats/job-offers/{id}'],
  ['replaceJobOffer', 'put', '/ats/job-offers/{id}'],
  ['patchJobOffer', 'patch', '/ats/job-offers/{id}'],
  ['batchCreateJobOfferAttributes', 'post', '/ats/job-offers/{id}/attributes'],
  ['patchJobOfferAttribute', 'patch', '/ats/job-offers/{id}/attributes/{name}'],
  ['deleteJobOfferAttribute', 'delete', '/ats/job-offers/{id}/attributes/{name}'],
  ['batchCreateApplicationSteps', 'post', '/ats/application-steps'],
  ['getApplicationStep', 'get', '/ats/application-steps/{id}'],
  ['replaceApplicationStep', 'put', '/ats/application-steps/{id}'],
  ['patchApplicationStep', 'patch', '/ats/application-steps/{id}'],
  ['batchCreateJobboardActivities', 'post', '/jobboard/activities'],
  ['listJobboardActivities', 'get', '/jobboard/activities'],
  ['replaceJobboardActivity', 'put', '/jobboard/activities/{id}'],
  ['patchJobboardActivity', 'patch', '/jobboard/activities/{id}'],
  ['batchCreateJobboardJobOffers', 'post', '/jobboard/job-offers'],
  ['patchJobboardJobOffer', 'patch', '/jobboard/job-offers/{id}'],
  ['deleteJobboardJobOffer', 'delete', '/jobboard/job-offers/{id}'],
  ['replaceUsers', 'put', '/users'],
];

interface Operation {
  method: string;
  path: string;
  op: JsonObject;
}

function loadDocument(): JsonObject {
  const doc: unknown = parse(readFileSync(openapiPath, 'utf8'));
  if (!isObject(doc)) throw new Error('openapi.yaml is not a YAML mapping');
  return doc;
}

function operations(doc: JsonObject): Operation[] {
  const paths = doc['paths'];
  if (!isObject(paths)) throw new Error('openapi.yaml has no paths');
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op)) found.push({ method, path, op });
    }
  }
  return found;
}

function collectRefs(node: unknown, at: string, out: Array<{ ref: string; at: string }>): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => collectRefs(child, `${at}/${i}`, out));
  } else if (isObject(node)) {
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string') out.push({ ref: child, at });
      else collectRefs(child, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
}

// RFC 6901 pointer, as found in a URI fragment (so percent-decoded first).
function resolvePointer(doc: unknown, fragment: string): unknown {
  if (fragment === '') return doc;
  if (!fragment.startsWith('/')) throw new Error(`not a JSON pointer: #${fragment}`);
  let node: unknown = doc;
  for (const raw of fragment.slice(1).split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

describe('spec/openapi.yaml', () => {
  const doc = loadDocument();
  const ops = operations(doc);

  it('is a valid OpenAPI 3.1 document, external refs included', async () => {
    const validator = new Validator();
    // The validator resolves refs by literal URI, not relative to $id: register each
    // schema under the name openapi.yaml uses and under the bare name the schemas use
    // among themselves (e.g. job-offer.json -> job-offer-attribute.json).
    for (const file of readdirSync(schemasDir).filter((f) => f.endsWith('.json'))) {
      await validator.addSpecRef(join(schemasDir, file), `./schemas/${file}`);
      await validator.addSpecRef(join(schemasDir, file), file);
    }
    const result = await validator.validate(openapiPath);
    expect(result.valid, `validator errors:\n${JSON.stringify(result.errors, null, 2)}`).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('declares exactly the 21 operations of the spec Summary, in x-rdx-endpoint order', () => {
    expect(ops.map((o) => o.op['operationId']).sort()).to.deep.equal(SUMMARY.map(([id]) => id).sort());
    SUMMARY.forEach(([operationId, method, path], i) => {
      const found = ops.find((o) => o.op['operationId'] === operationId);
      expect(found, operationId).to.not.equal(undefined);
      expect([found?.method, found?.path], operationId).to.deep.equal([method, path]);
      expect(found?.op['x-rdx-endpoint'], operationId).to.equal(i + 1);
    });
    const endpoints = ops.map((o) => o.op['x-rdx-endpoint']);
    expect([...endpoints].sort((a, b) => Number(a) - Number(b))).to.deep.equal(
      Array.from({ length: 21 }, (_, i) => i + 1),
    );
  });

  it('tags every operation with an allowed x-rdx-kind and x-rdx-resource', () => {
    for (const { op } of ops) {
      const id = String(op['operationId']);
      expect(KINDS, `${id} x-rdx-kind`).to.include(op['x-rdx-kind']);
      expect(RESOURCES, `${id} x-rdx-resource`).to.include(op['x-rdx-resource']);
    }
  });

  it('gives every operation a 2XX and a default response (status codes are not shown)', () => {
    for (const { op } of ops) {
      const responses = op['responses'];
      expect(isObject(responses) ? Object.keys(responses).sort() : responses, String(op['operationId']))
        .to.deep.equal(['2XX', 'default']);
    }
  });

  it('requires bearer auth everywhere except the token endpoint', () => {
    const components = doc['components'];
    const schemes = isObject(components) ? components['securitySchemes'] : undefined;
    expect(isObject(schemes) ? schemes['bearer'] : undefined).to.deep.include({ type: 'http', scheme: 'bearer' });
    expect(doc['security']).to.deep.equal([{ bearer: [] }]);
    for (const { op } of ops) {
      // Only the token endpoint may override the global requirement, and only to drop it.
      if (op['operationId'] === 'requestToken') expect(op['security']).to.deep.equal([]);
      else expect(op, String(op['operationId'])).to.not.have.property('security');
    }
  });

  it('has schemas that are valid JSON Schema 2020-12 (the registry does not check them at run time)', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const meta = new Ajv2020({ strict: false });
    const files = schemaFiles();
    expect(files.length).to.be.greaterThan(4);
    for (const file of files) {
      expect(meta.validateSchema(loadSchema(file)), `${file}: ${meta.errorsText(meta.errors)}`).to.equal(true);
    }
    // The check itself can fail: a schema with a wrongly typed keyword is refused.
    expect(meta.validateSchema({ type: 'object', required: 'title' })).to.equal(false);
  });

  it('resolves every $ref into ./schemas/ to an existing file and JSON pointer', () => {
    const refs: Array<{ ref: string; at: string }> = [];
    collectRefs(doc, '#', refs);
    const external = refs.filter(({ ref }) => ref.startsWith('./schemas/'));
    // A guard against the walk silently finding nothing.
    expect(external.length).to.be.greaterThan(30);
    // Anything not internal must go through ./schemas/.
    expect(refs.filter(({ ref }) => !ref.startsWith('#') && !ref.startsWith('./schemas/'))).to.deep.equal([]);
    const cache = new Map<string, unknown>();
    for (const { ref, at } of external) {
      const hash = ref.indexOf('#');
      const file = join(specDir, hash === -1 ? ref : ref.slice(0, hash));
      const fragment = hash === -1 ? '' : ref.slice(hash + 1);
      expect(existsSync(file), `${ref} (at ${at}): file missing`).to.equal(true);
      if (!cache.has(file)) cache.set(file, JSON.parse(readFileSync(file, 'utf8')));
      expect(resolvePointer(cache.get(file), fragment), `${ref} (at ${at}): pointer does not resolve`)
        .to.not.equal(undefined);
    }
  });
});
