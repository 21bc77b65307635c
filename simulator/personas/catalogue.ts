// The one registry of personas: a persona lives in faults/<name>.js or variants/<name>.js, the file named after the
// persona (personas.test.ts holds every module to that), and is known by being there; nothing lists it by hand.
// `rdx simulate --fault X` reads one directory listing and loads one module (importing all hundred of them was a
// fifth of the simulator's start-up); index.ts loads them all, for what needs them all: the self-check, the
// dashboard's list, the docs.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Store } from '../store.js';
import type { Persona } from './types.js';

const FOLDERS: Readonly<Record<Persona['kind'], string>> = { fault: 'faults', variant: 'variants' };
const KINDS = Object.keys(FOLDERS) as Persona['kind'][];

const namesOf = new Map<Persona['kind'], string[]>();

/** The persona names of a kind, sorted, from the module files beside this one. */
export function personaNames(kind: Persona['kind']): string[] {
  let names = namesOf.get(kind);
  if (!names) {
    const files = readdirSync(new URL(`./${FOLDERS[kind]}/`, import.meta.url));
    names = files.filter((f) => /^[a-z0-9-]+\.js$/.test(f)).map((f) => f.slice(0, -'.js'.length)).sort();
    namesOf.set(kind, names);
  }
  return names;
}

/** The kind of the persona with this name; undefined when there is none. */
export function personaKind(name: string): Persona['kind'] | undefined {
  return KINDS.find((kind) => personaNames(kind).includes(name));
}

/** The persona with this name, its module loaded now; undefined when there is none. */
export async function loadPersona(name: string): Promise<Persona | undefined> {
  const kind = personaKind(name);
  if (!kind) return undefined;
  return personaIn((await import(`./${FOLDERS[kind]}/${name}.js`)) as Record<string, unknown>, kind, name);
}

/**
 * Every persona, variants then faults, each kind by name, loaded now. Synchronously, through require(esm): an
 * await at the top of personas/index.ts would make the package's API, which exports allPersonas(), an async
 * module that CommonJS callers can no longer require().
 */
export function loadAllPersonas(): Persona[] {
  const require = createRequire(import.meta.url);
  return (['variant', 'fault'] as const).flatMap((kind) => personaNames(kind).map((name) =>
    personaIn(require(`./${FOLDERS[kind]}/${name}.js`) as Record<string, unknown>, kind, name)));
}

/** The persona a module exports under its name. */
function personaIn(module: Record<string, unknown>, kind: Persona['kind'], name: string): Persona {
  const found = Object.values(module).find((value): value is Persona => (value as Persona | undefined)?.name === name);
  if (!found) throw new Error(`rdx simulator: ${FOLDERS[kind]}/${name}.js exports no persona named ${name}`);
  return found;
}

/** The {id} of the first job offer in the store, through the persona that changes what {id} means, if any. */
export function atsJobOfferFixtureIds(store: Store, personas: readonly Persona[]): string[] {
  const first = store.jobOffers.values()[0];
  if (!first) return [];
  const idOf = personas.find((p) => p.atsJobOfferId)?.atsJobOfferId;
  return [idOf?.(store, first.reference) ?? first.reference];
}
