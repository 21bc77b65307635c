// Every persona the simulator knows, for --fault and --variant and for the harness's own tests.
import type { Persona } from './types.js';
import { pathPrefix } from './variants/path-prefix.js';
import { relativeNextLink } from './variants/relative-next-link.js';

export type { Persona } from './types.js';

const PERSONAS: readonly Persona[] = [relativeNextLink, pathPrefix];

export function allPersonas(kind?: Persona['kind']): Persona[] {
  return PERSONAS.filter((p) => kind === undefined || p.kind === kind);
}

export function personaByName(name: string): Persona | undefined {
  return PERSONAS.find((p) => p.name === name);
}
