// The request defs say "no other members" with `additionalProperties: false` beside their own `properties` (each a
// $ref to the field's one definition under $defs/fields), which peer tools read (Schemathesis' generator did not
// implement `unevaluatedProperties`). This proves the form is the same rule as the composition it replaced,
// `{ "$ref": "#/$defs/fields", "required": […], "unevaluatedProperties": false }`: on thousands of generated bodies,
// valid and not, both accept the same ones and report the same problems in the same order, through the same ajv.
import { expect } from 'chai';
import { SCHEMA_BASE, formatError, loadSchema, newSchemaRegistry, schemaErrors, schemaFiles } from './index.js';

type Node = Record<string, unknown>;

/** A small deterministic generator (mulberry32): the same bodies on every run. */
function rng(seed: number): { next(): number; int(n: number): number; pick<T>(xs: readonly T[]): T; chance(p: number): boolean } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)] as T, chance: (p: number) => next() < p };
}

/** The closed defs: those with additionalProperties false whose properties are $refs into $defs/fields. */
function closedDefs(): { file: string; name: string; def: Node; fields: Node }[] {
  const found: { file: string; name: string; def: Node; fields: Node }[] = [];
  for (const file of schemaFiles()) {
    const defs = (loadSchema(file)['$defs'] ?? {}) as Record<string, Node>;
    const fields = defs['fields'];
    if (!fields) continue;
    for (const [name, def] of Object.entries(defs)) {
      if (def['additionalProperties'] === false) found.push({ file, name, def, fields });
    }
  }
  return found;
}

const WRONG: readonly unknown[] = [1, 2.5, -0, 'x', '', null, true, false, [], ['x'], {}, { a: 1 }];
const UNKNOWN = ['id', 'extra', 'Title', 'title ', '', 'x-rdx', 'constructor', 'toString', '__proto__'];

/** A value of a field by its schema (types from `type`; arrays of attributes as the attribute def allows). */
function valueOf(prop: Node, r: ReturnType<typeof rng>): unknown {
  const types = Array.isArray(prop['type']) ? (prop['type'] as string[]) : [String(prop['type'] ?? 'string')];
  const type = r.pick(types);
  if (type === 'null') return null;
  if (type === 'number') return r.pick([0, 1, -3, 2.5, 1e9]);
  if (type === 'array') {
    return Array.from({ length: r.int(3) }, () => {
      const item: Node = { name: r.pick(['a', 'b', '']), value: r.pick(['v', '', 'x y']) };
      if (r.chance(0.15)) item[r.pick(UNKNOWN)] = 1;
      if (r.chance(0.15)) item[r.pick(['name', 'value'])] = r.pick(WRONG);
      if (r.chance(0.1)) delete item[r.pick(['name', 'value'])];
      return item;
    });
  }
  return r.pick(['2026-03-01', '2026-03-01T09:00:00Z', 'text', '', 'JO-1']);
}

/** A body for a def: mostly objects of its fields, spoiled in zero to three ways; now and then not an object at all. */
function body(def: Node, fields: Node, r: ReturnType<typeof rng>): unknown {
  if (r.chance(0.03)) return r.pick([null, [], 'x', 1, [{}]]);
  const props = (fields['properties'] ?? {}) as Record<string, Node>;
  const names = Object.keys(props);
  const value: Node = {};
  for (const name of names) if (r.chance(0.7)) value[name] = valueOf(props[name] as Node, r);
  const required = (def['required'] as string[] | undefined) ?? [];
  for (let spoil = r.int(4); spoil > 0; spoil--) {
    const how = r.int(3);
    if (how === 0) Object.defineProperty(value, r.pick(UNKNOWN), { value: r.pick(WRONG), enumerable: true, configurable: true, writable: true });
    else if (how === 1 && required.length > 0) delete value[r.pick(required)];
    else value[r.pick(names)] = r.pick(WRONG);
  }
  return value;
}

describe('spec/schemas: the closed request defs', function () {
  this.timeout(60_000);
  const defs = closedDefs();

  it('are the create, patch and replace-item defs, each listing exactly the fields of its file as $refs to them', () => {
    // The attribute defs list their two fields inline, as they always did.
    const named = defs.filter((d) => d.file !== 'job-offer-attribute.json');
    expect(named.map((d) => `${d.file}#${d.name}`).sort()).to.deep.equal([
      'application-step.json#create', 'application-step.json#patch', 'job-offer.json#create', 'job-offer.json#patch',
      'jobboard-activity.json#create', 'jobboard-activity.json#patch', 'jobboard-job-offer.json#create', 'jobboard-job-offer.json#patch',
      'user.json#replace-item',
    ]);
    for (const { file, name, def, fields } of named) {
      const props = def['properties'] as Record<string, Node>;
      expect(Object.keys(props), `${file}#${name}`).to.deep.equal(Object.keys(fields['properties'] as Node));
      for (const [field, p] of Object.entries(props)) expect(p, `${file}#${name}/${field}`).to.deep.equal({ $ref: `#/$defs/fields/properties/${field}` });
      expect(def['$ref'], 'no $ref beside them: tools that ignore siblings of $ref would lose the rule').to.equal(undefined);
      expect(def['unevaluatedProperties']).to.equal(undefined);
    }
  });

  it('accept and refuse exactly what the unevaluatedProperties composition did, with the same problems', () => {
    const ajv = newSchemaRegistry();
    // The composition form, beside the real one in the same registry (same options, same referenced schemas).
    const composed: Node = { $id: `${SCHEMA_BASE}composed.json`, $defs: {} };
    const pairs = defs.filter((d) => d.file !== 'job-offer-attribute.json').map((d) => {
      const key = `${d.file.replace('.json', '')}-${d.name}`;
      (composed['$defs'] as Node)[key] = {
        $ref: `${d.file}#/$defs/fields`,
        ...(d.def['required'] ? { required: d.def['required'] } : {}),
        unevaluatedProperties: false,
      };
      return { ...d, key };
    });
    ajv.addSchema(composed);
    // A replace def is a lone $ref to its create def: judged the same way, through schemaErrors' ordering too.
    for (const file of schemaFiles()) {
      const defsOf = (loadSchema(file)['$defs'] ?? {}) as Record<string, Node>;
      const create = pairs.find((p) => p.file === file && p.name === 'create');
      if (create && defsOf['replace']?.['$ref'] === '#/$defs/create') pairs.push({ ...create, name: 'replace' });
    }
    expect(pairs.filter((p) => p.name === 'replace').length, 'replace defs judged').to.equal(3);
    const r = rng(29);
    let accepted = 0;
    let refused = 0;
    for (const { file, name, def, fields, key } of pairs) {
      const flat = ajv.getSchema(`${SCHEMA_BASE}${file}#/$defs/${name}`);
      // The composition of the def itself, or of the create def a replace def names.
      const old = ajv.getSchema(`${SCHEMA_BASE}composed.json#/$defs/${key}`);
      if (!flat || !old) throw new Error(`no validator for ${file}#${name}`);
      for (let i = 0; i < 1500; i++) {
        const value = body(def, fields, r);
        const a = flat(value);
        // What the simulator and the harness report: schemaErrors, through the build's validators when fresh.
        const aErrors = schemaErrors(`${SCHEMA_BASE}${file}#/$defs/${name}`, value);
        expect(aErrors.length === 0, `${file}#${name}: schemaErrors and the registry agree`).to.equal(a);
        const b = old(value);
        const bErrors = (old.errors ?? []).map(formatError);
        const where = `${file}#${name} on ${JSON.stringify(value)}`;
        expect(a, where).to.equal(b);
        expect(aErrors, where).to.deep.equal(bErrors);
        if (a) accepted++;
        else refused++;
      }
    }
    // Both sides of the rule were exercised, not one.
    expect(accepted, 'bodies accepted').to.be.at.least(1000);
    expect(refused, 'bodies refused').to.be.at.least(5000);
  });
});
