// Values in suite files: `${name.path}` templates and `$`-directives that make data from the spec's schemas with
// the run's seeded faker. Every identity the run makes carries the run tag, so its records can be told apart.
import type { Faker } from '@faker-js/faker';
import { resourceInfo } from '../spec/index.js';
import { readPath } from '../core/paths.js';
import { boundaryText } from '../data/boundary.js';

export type Factory = (faker: Faker, overrides?: Record<string, unknown>) => Record<string, unknown>;

export interface GenerationContext {
  faker: Faker;
  factories: Record<string, Factory>;
  /** Short tag unique to this run, e.g. "rdx-k3v9q2". */
  runTag: string;
  /** Counter for unique values within the run. */
  next(): number;
  /** Items made by $invalid, so oracles know which batch items should fail. */
  invalidItems: WeakSet<object>;
  /** Each $invalid item as it was before it was spoiled: a control step sends it (`control: { repair: true }`). */
  repaired: WeakMap<object, Record<string, unknown>>;
  /** Anchor date for relative dates (fixed per run so a seed gives the same data). */
  anchor: Date;
  /** How {id} of an ATS job offer is written, given its reference. */
  jobOfferId(reference: string): string;
  /** The format of date filter values (interpretation DATE_FILTER_FORMAT: declared, else date). */
  dateFilterFormat: 'date' | 'date-time';
  /** The case this context was made for has ended: what it holds may serve another case (its faker, reseeded). */
  release?(): void;
}

export type Vars = Record<string, unknown>;

/** camelCase factory name of a schema file stem: job-offer → jobOffer. */
export const factoryName = (resource: string): string => resource.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());

const WHOLE = /^\$\{([^}]+)\}$/;
const PART = /\$\{([^}]+)\}/g;

export class TemplateError extends Error {}

function lookup(vars: Vars, path: string): unknown {
  const [head = '', ...rest] = path.trim().split('.');
  if (!(head in vars)) throw new TemplateError(`\${${path}}: no variable ${head} (defined: ${Object.keys(vars).join(', ') || 'none'})`);
  return readPath(vars[head], rest.join('.'));
}

/** Resolves templates and directives in a value, depth first. A lone `${x}` keeps x's type. */
export function resolve(value: unknown, vars: Vars, gen: GenerationContext): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole?.[1]) return lookup(vars, whole[1]);
    return value.replace(PART, (_, path: string) => {
      const v = lookup(vars, path);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.flatMap((v) => {
    const r = resolve(v, vars, gen);
    // A generator with count inside an array spreads into it, so a batch can mix valid and invalid items.
    return isDirective(v) && Array.isArray(r) ? r : [r];
  });
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (isDirective(obj)) return directive(obj, vars, gen);
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolve(v, vars, gen)]));
  }
  return value;
}

function isDirective(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).some((k) => k.startsWith('$'));
}

function directive(obj: Record<string, unknown>, vars: Vars, gen: GenerationContext): unknown {
  const resolved = (key: string): unknown => resolve(obj[key], vars, gen);
  if ('$valid' in obj || '$invalid' in obj) {
    const resource = String(obj['$valid'] ?? obj['$invalid']);
    const count = obj['count'] === undefined ? undefined : Number(resolved('count'));
    const make = (): Record<string, unknown> => {
      const item = makeItem(resource, (resolved('with') as Record<string, unknown> | undefined) ?? {}, gen);
      if ('$invalid' in obj) spoil(item, resource, obj, gen);
      return item;
    };
    return count === undefined ? make() : Array.from({ length: count }, make);
  }
  if ('$text' in obj) {
    // {$text: scripts|edges|long, length?: n, prefix?: text}: boundary text from the run's faker (src/data/boundary.ts).
    const length = obj['length'] === undefined ? undefined : Number(resolved('length'));
    try {
      return `${obj['prefix'] === undefined ? '' : String(resolved('prefix'))}${boundaryText(gen.faker, String(resolved('$text')), length)}`;
    } catch (error) {
      throw new TemplateError(`$text: ${(error as Error).message}`);
    }
  }
  if ('$unique' in obj) return `${gen.runTag}-${String(resolved('$unique'))}-${gen.next()}`;
  if ('$date' in obj) {
    // {$date: -30, format: date|date-time|filter}: days from the run's anchor; `filter` is the date-filter format.
    const days = Number(resolved('$date'));
    const at = new Date(gen.anchor.getTime() + days * 86_400_000);
    const format = obj['format'] === 'filter' ? gen.dateFilterFormat : obj['format'];
    return format === 'date' ? at.toISOString().slice(0, 10) : at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  if ('$jobOfferId' in obj) return gen.jobOfferId(String(resolved('$jobOfferId')));
  // {$literal: VALUE}: sent as written, templates and directives inside it left alone (text that holds "\${").
  if ('$literal' in obj) return obj['$literal'];
  if ('$json' in obj) {
    const text = JSON.stringify(resolved('$json'));
    // {$json: VALUE, break: how}: the JSON of a valid value made malformed in one way, so the same value sent well
    // formed is the probe's control.
    return obj['break'] === undefined ? text : breakJson(text, String(resolved('break')));
  }
  // {$form: {name: value}}: an application/x-www-form-urlencoded body, each value encoded (a secret with & or + in it).
  if ('$form' in obj) {
    const fields = resolved('$form');
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) throw new TemplateError('$form takes an object of field names and values');
    return new URLSearchParams(Object.entries(fields as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  }
  // {$base64: "id:secret"}: e.g. valid Basic credentials, to see that a Bearer-only API refuses them.
  if ('$base64' in obj) return Buffer.from(String(resolved('$base64')), 'utf8').toString('base64');
  if ('$pick' in obj) {
    // {$pick: "${records}", field: reference}: the field of every item of a list.
    const list = resolved('$pick');
    return Array.isArray(list) ? list.map((x) => readPath(x, String(obj['field']))) : [];
  }
  throw new TemplateError(`unknown directive ${Object.keys(obj).filter((k) => k.startsWith('$')).join(', ')}`);
}

/** Malformed JSON made from well-formed JSON text, one way per name. */
export const JSON_BREAKS: Readonly<Record<string, (text: string) => string>> = {
  cut: (text) => text.slice(0, -1),
  'trailing-comma': (text) => `${text.slice(0, -1)},${text.slice(-1)}`,
  'single-quotes': (text) => text.replace(/"/g, "'"),
  'extra-brace': (text) => `${text}}`,
};

function breakJson(text: string, how: string): string {
  const make = JSON_BREAKS[how];
  if (!make) throw new TemplateError(`$json: break ${how} is none of ${Object.keys(JSON_BREAKS).join(', ')}`);
  return make(text);
}

/** A valid create item: the factory's realistic data, run-tagged identity and references, then overrides. */
function makeItem(resource: string, overrides: Record<string, unknown>, gen: GenerationContext): Record<string, unknown> {
  const factory = gen.factories[factoryName(resource)];
  if (!factory) throw new TemplateError(`no data factory for ${resource} (src/data/factories.ts exports ${Object.keys(gen.factories).join(', ')})`);
  const info = resourceInfo(resource);
  const item = factory(gen.faker);
  const tag = `${gen.runTag}-${gen.next()}`;
  for (const f of info.fields) {
    if (f.identity && f.name === 'mail') item[f.name] = `${tag}@rdx-conformance.test`;
    else if (f.identity || f.reference) item[f.name] = f.reference ? `${tag}-JO` : tag;
  }
  return { ...item, ...overrides };
}

/** Turns a valid item into an invalid one: a required field left out, or a field of another type. */
function spoil(item: Record<string, unknown>, resource: string, obj: Record<string, unknown>, gen: GenerationContext): void {
  const info = resourceInfo(resource);
  gen.repaired.set(item, structuredClone(item));
  if (typeof obj['omit'] === 'string') delete item[obj['omit']];
  if (typeof obj['wrongType'] === 'string') {
    const field = info.fields.find((f) => f.name === obj['wrongType']);
    // A number where text is declared, text where a number is declared.
    item[obj['wrongType']] = field?.types.includes('number') ? String(item[obj['wrongType']] ?? '1') : 12345;
  }
  gen.invalidItems.add(item);
}
