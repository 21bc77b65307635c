// spec/schemas in a second validator: one that reads a `$ref` the way OpenAPI tools built on "extended" $ref
// dereferencing do (Prism among them): the referenced schema is copied in and its siblings replace what they name, so
// `{ $ref: fields, properties: { id } }` loses the field list and checks `id` only. A record def written as
// `allOf: [{ $ref }]` plus the same siblings reads the same in that validator and in ajv (2020-12); this holds each
// resource's record to it: a field of the wrong type is caught by both.
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadSchema, schemaFiles } from './index.js';

type Node = Record<string, unknown>;

/** Resolves a local JSON pointer ("#/$defs/record") in a document. */
function pointer(doc: Node, ref: string): Node {
  let at: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) at = (at as Node | undefined)?.[part];
  if (!at || typeof at !== 'object') throw new Error(`no ${ref}`);
  return at as Node;
}

/** Every local $ref replaced by a copy of its target, its siblings winning over the target's members; other refs dropped. */
function extendedDeref(node: unknown, doc: Node, depth = 0): unknown {
  if (depth > 20 || !node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => extendedDeref(n, doc, depth + 1));
  const { $ref, ...siblings } = node as Node;
  const own = Object.fromEntries(Object.entries(siblings).map(([k, v]) => [k, extendedDeref(v, doc, depth + 1)]));
  if (typeof $ref !== 'string') return own;
  const target = $ref.startsWith('#/') ? extendedDeref(pointer(doc, $ref), doc, depth + 1) as Node : {};
  return { ...target, ...own };
}

/** The record defs of the resources with an id, and a field of the record whose type a fault can break. */
function records(): { file: string; def: string; field: string; wrong: unknown }[] {
  const out: { file: string; def: string; field: string; wrong: unknown }[] = [];
  for (const file of schemaFiles()) {
    const doc = loadSchema(file);
    const defs = (doc['$defs'] ?? {}) as Record<string, Node>;
    const fields = (defs['fields']?.['properties'] ?? {}) as Record<string, Node>;
    if (!defs['record-with-id']) continue;
    for (const [field, schema] of Object.entries(fields)) {
      const type = (extendedDeref(schema, doc) as Node)['type'];
      if (type === 'string' || type === 'integer') {
        out.push({ file, def: 'record-with-id', field, wrong: type === 'string' ? 12345 : '12' });
        break;
      }
    }
  }
  return out;
}

describe('spec/schemas read by a second validator (extended $ref, as Prism reads them)', () => {
  const cases = records();

  it('covers every resource whose records carry an id', () => {
    expect(cases.map((c) => c.file)).to.include.members(['application-step.json', 'jobboard-activity.json', 'jobboard-job-offer.json']);
  });

  for (const c of cases) {
    it(`${c.file}: a record with ${c.field} of the wrong type is refused by it, as by ajv`, () => {
      const doc = loadSchema(c.file);
      const record = { [c.field]: c.wrong };
      const second = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
      const validate = second.compile(extendedDeref(pointer(doc, `#/$defs/${c.def}`), doc) as Node);
      validate(record);
      const at = (validate.errors ?? []).filter((e) => e.instancePath === `/${c.field}`).map((e) => e.keyword);
      expect(at, `${c.file} ${c.field}: ${JSON.stringify(validate.errors)}`).to.include('type');
    });
  }
});
