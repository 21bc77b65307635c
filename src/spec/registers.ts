// The two registers of spec/: clauses.yaml (every normative statement) and interpretations.yaml (every open point).
import { asRecord, readYaml } from './files.js';

export type ClauseLevel = 'MUST' | 'SHOULD';
export type Level = ClauseLevel | 'OBSERVE';

export interface Clause {
  id: string;
  level: ClauseLevel;
  family: string;
  title: string;
  /** The spec's words (MUST clauses). */
  quote?: string;
  /** The RFC or convention a SHOULD clause rests on. */
  basis?: string;
  section?: string;
  endpoints: number[];
  note?: string;
}

export interface Interpretation {
  id: string;
  quote: string;
  question: string;
  /** `declared`: the simulator's behaviour in the vocabulary of `values`, where `default` is in the simulator's own. */
  simulator: { default: unknown; declared?: unknown; text: string };
  harness: string;
  key: string | null;
  values?: unknown;
}

const ALL_ENDPOINTS = Array.from({ length: 21 }, (_, i) => i + 1);

function endpointsOf(value: unknown, where: string): number[] {
  if (value === 'all') return ALL_ENDPOINTS;
  if (value === 'protected') return ALL_ENDPOINTS.filter((n) => n !== 1);
  if (Array.isArray(value) && value.every((n) => Number.isInteger(n) && n >= 1 && n <= 21)) return value as number[];
  throw new Error(`rdx: ${where}.endpoints must be "all", "protected" or a list of 1..21`);
}

let clausesCache: Clause[] | undefined;
export function clauses(): Clause[] {
  if (clausesCache) return clausesCache;
  const doc = asRecord(readYaml('clauses.yaml'), 'spec/clauses.yaml');
  const list = doc['clauses'];
  if (!Array.isArray(list)) throw new Error('rdx: spec/clauses.yaml has no clauses list');
  clausesCache = list.map((raw, i) => {
    const c = asRecord(raw, `spec/clauses.yaml clauses[${i}]`);
    return { ...(c as unknown as Clause), endpoints: endpointsOf(c['endpoints'], `spec/clauses.yaml clauses[${i}]`) };
  });
  return clausesCache;
}

export function clause(id: string): Clause {
  const found = clauses().find((c) => c.id === id);
  if (!found) throw new Error(`rdx: unknown clause ${id} (not in spec/clauses.yaml)`);
  return found;
}

let interpretationsCache: Interpretation[] | undefined;
export function interpretations(): Interpretation[] {
  if (interpretationsCache) return interpretationsCache;
  const doc = asRecord(readYaml('interpretations.yaml'), 'spec/interpretations.yaml');
  const list = doc['interpretations'];
  if (!Array.isArray(list)) throw new Error('rdx: spec/interpretations.yaml has no interpretations list');
  interpretationsCache = list as Interpretation[];
  return interpretationsCache;
}

export function interpretation(id: string): Interpretation {
  const found = interpretations().find((i) => i.id === id);
  if (!found) throw new Error(`rdx: unknown interpretation ${id} (not in spec/interpretations.yaml)`);
  return found;
}

/** The simulator's default for an open point, as the register states it. */
export function simulatorDefault<T>(id: string): T {
  return interpretation(id).simulator.default as T;
}
