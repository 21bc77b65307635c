// The argument that lets the self-check run most personas once: a persona's answer can depend on what runs beside a
// case only through state it keeps between requests, records it reads beyond those the request names or filters to,
// a rewritten list query, a clock, or a limit shared by all cases. This reads the source of every persona (and of the
// persona modules it imports) for each of those and requires every persona that shows one to be run at both
// concurrencies (scheduleDependence); the rest cannot be answered differently by another schedule, so one run says
// all a second would.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { packageRoot } from '../spec/index.js';
import { allPersonas } from '../../simulator/personas/index.js';
import { SHARED_STATE, scheduleDependence } from './schedule.js';

const PERSONAS = join(packageRoot, 'simulator', 'personas');

/** A module-level collection that some code of the module changes: it outlives the request that changed it. */
function changedCollection(code: string): string | undefined {
  for (const m of code.matchAll(/^(?:export\s+)?const\s+(\w+)(?:\s*:[^=]+)?\s*=\s*(new\s+(Map|Set|WeakMap|WeakSet|Array)\b[^;]*|\[\s*\])/gm)) {
    // A WeakMap keyed by the request's context is one request's memory, gone with it.
    if (m[3] === 'WeakMap' && /^new\s+WeakMap<RequestContext\b/.test(m[2] as string)) continue;
    const changed = new RegExp(`\\b${m[1]}\\s*\\.\\s*(?:set|add|delete|clear|push|pop|shift|unshift|splice)\\s*\\(`).exec(code);
    if (changed) return `${m[1]} (${changed[0].trim()})`;
  }
  return undefined;
}

const first = (pattern: RegExp) => (code: string): string | undefined => pattern.exec(code)?.[0].trim();

/** What lets an answer depend on other cases or on time, as it shows in TypeScript source (comments removed). */
export const REACHES: readonly { what: string; find: (code: string) => string | undefined }[] = [
  { what: 'module-level state kept between requests', find: first(/^(?:export\s+)?(?:let|var)\s+\w+/m) },
  { what: 'a module-level collection kept between requests', find: changedCollection },
  { what: 'every stored record of a kind', find: first(/\bstore\s*\.\s*(?:\w+\s*\.\s*(?:values|entries|keys|size)\b|users\b)/) },
  { what: 'a list filter dropped', find: first(/\b(?:query|searchParams)\s*\.\s*delete\s*\(|\.search\s*=(?!=)/) },
  { what: "the simulator's handlers called with another query", find: first(/\.\.\.ctx\b[^}]*\bquery\s*:|\bHANDLERS\b/) },
  { what: 'the clock or chance', find: first(/\bDate\.now\s*\(|\bMath\.random\s*\(|\bnow\s*\(\s*\)|\bset(?:Timeout|Interval)\s*\(/) },
];

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** What a source shows of REACHES, one line each ("what: the matching text"). */
export function reachesIn(source: string): string[] {
  const code = withoutComments(source);
  return REACHES.flatMap(({ what, find }) => {
    const found = find(code);
    return found === undefined ? [] : [`${what}: ${found}`];
  });
}

/** The persona module and every module under simulator/personas/ it imports (support.ts and types.ts judged apart). */
function personaSources(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const local = [...source.matchAll(/^import\s+(?!type\b)[^'"]*['"](\.[^'"]+)\.js['"]/gm)]
    .map((m) => resolve(dirname(file), `${m[1]}.ts`))
    .filter((f) => f.startsWith(PERSONAS) && !/[/\\](support|types)\.ts$/.test(f));
  return [file, ...local.flatMap((f) => personaSources(f, seen))];
}

function personaFiles(): Map<string, string> {
  const byName = new Map<string, string>();
  for (const kind of ['faults', 'variants']) {
    for (const entry of readdirSync(join(PERSONAS, kind)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const file = join(PERSONAS, kind, entry);
      const names = [...readFileSync(file, 'utf8').matchAll(/^\s*name:\s*'([a-z0-9-]+)'/gm)].map((m) => m[1] as string);
      // A persona made by a helper of support.ts (partialSuccessWith(400)) is named as its file is.
      for (const name of names.length > 0 ? names : [entry.replace(/\.ts$/, '')]) byName.set(name, file);
    }
  }
  return byName;
}

describe('self-check: which personas run at both concurrencies', () => {
  it('finds each kind of reach in a planted source, and none in a persona that only rewrites its own answer', () => {
    expect(reachesIn('let seen = 0;\nexport const p = {};')).to.deep.equal(['module-level state kept between requests: let seen']);
    expect(reachesIn('const memory = new WeakMap<Store, string>();\nmemory.set(ctx.store, "x");')).to.deep.equal(['a module-level collection kept between requests: memory (memory.set()']);
    expect(reachesIn('const seen: string[] = [];\nfunction f() { seen.push(1); }')[0]).to.match(/^a module-level collection/);
    expect(reachesIn('const KEYS = new Set([\'a\']);\nKEYS.has(x);'), 'a constant').to.deep.equal([]);
    expect(reachesIn('const sent = new WeakMap<RequestContext, string>();\nsent.set(ctx, "x");'), 'one request\'s memory').to.deep.equal([]);
    expect(reachesIn('const all = ctx.store.applicationSteps.values();')[0]).to.match(/^every stored record/);
    expect(reachesIn('const all = [...ctx.store.users];')[0]).to.match(/^every stored record/);
    expect(reachesIn("ctx.query.delete('reference');")[0]).to.match(/^a list filter dropped/);
    expect(reachesIn("url.search = '';")[0], 'a next link without the filters').to.match(/^a list filter dropped/);
    expect(reachesIn('handler({ ...ctx, query: rest });')[0]).to.match(/^the simulator's handlers/);
    expect(reachesIn('function link(ctx: RequestContext, query: URLSearchParams): string {'), 'a parameter is no rewrite').to.deep.equal([]);
    expect(reachesIn('return HANDLERS[id];')[0]).to.match(/^the simulator's handlers/);
    expect(reachesIn('const at = ctx.options.now();')[0]).to.match(/^the clock/);
    expect(reachesIn('// let me explain: ctx.store.users.values()\nres.body.message = undefined;')).to.deep.equal([]);
  });

  it('the helpers every persona may import (support.ts) reach no further than the request', () => {
    expect(reachesIn(readFileSync(join(PERSONAS, 'support.ts'), 'utf8'))).to.deep.equal([]);
  });

  it('runs at both concurrencies every persona whose source reaches beyond the request, and lists no other', () => {
    const files = personaFiles();
    const unmarked: string[] = [];
    const reaching = new Set<string>();
    for (const persona of allPersonas()) {
      const file = files.get(persona.name);
      expect(file, `no source under simulator/personas/ names the persona ${persona.name}`).to.be.a('string');
      const reaches = personaSources(file as string).flatMap((f) => reachesIn(readFileSync(f, 'utf8')).map((r) => `${relative(packageRoot, f)}: ${r}`));
      if (reaches.length > 0) reaching.add(persona.name);
      if (reaches.length > 0 && scheduleDependence(persona) === undefined) unmarked.push(`${persona.name} (${reaches.join('; ')})`);
    }
    expect(unmarked, 'name these in SHARED_STATE (src/selfcheck/schedule.ts), saying why, or mark them acrossCases').to.deep.equal([]);
    const stale = Object.keys(SHARED_STATE).filter((name) => !reaching.has(name));
    expect(stale, 'SHARED_STATE names personas whose source reaches no further than the request: remove them').to.deep.equal([]);
  });
});
