// Every persona the simulator knows, loaded, for what needs them all: --fault and --variant listings, the dashboard,
// the harness's self-check (src/selfcheck) and the docs. Which personas there are is the catalogue's to say.
import { loadAllPersonas } from './catalogue.js';
import type { Persona } from './types.js';

export type { Persona } from './types.js';

/** Loaded on first use: importing the package's API loads no persona until one is asked for. */
let loaded: readonly Persona[] | undefined;
const personas = (): readonly Persona[] => (loaded ??= loadAllPersonas());

export function allPersonas(kind?: Persona['kind']): Persona[] {
  return personas().filter((p) => kind === undefined || p.kind === kind);
}

export function personaByName(name: string): Persona | undefined {
  return personas().find((p) => p.name === name);
}
