// Which cases run, in which order: filters, safety tiers, prerequisites pulled in, a deterministic order.
import type { Level } from '../spec/index.js';
import type { CaseDef } from './suite.js';

export interface CaseFilters {
  tags?: string[];
  levels?: Level[];
  endpoints?: number[];
  clauses?: string[];
  /** A regular expression on "id title", as mocha's --grep. */
  grep?: string;
  invert?: boolean;
  /** Only read-only cases. */
  readOnly?: boolean;
  /** Shard "i/n": keep the i-th of n deterministic slices. */
  shard?: { index: number; count: number };
}

export interface Plan {
  cases: CaseDef[];
  /** Cases run only because a selected case requires them. */
  pulledIn: Set<string>;
}

/**
 * Tags of cases that run only when asked for by name (--tag large): they leave records no client can delete (the
 * spec has no DELETE for activities), and their clauses are judged by other cases in every run, so leaving them out
 * makes no run INCOMPLETE.
 */
export const OPT_IN_TAGS = ['large'];

function matches(c: CaseDef, f: CaseFilters): boolean {
  const optIn = c.tags.filter((t) => OPT_IN_TAGS.includes(t));
  if (optIn.length && !optIn.some((t) => f.tags?.includes(t))) return false;
  if (f.tags?.length && !f.tags.some((t) => c.tags.includes(t))) return false;
  if (f.levels?.length && !f.levels.includes(c.level)) return false;
  if (f.endpoints?.length && !f.endpoints.some((e) => c.endpoints.includes(e))) return false;
  if (f.clauses?.length && !f.clauses.some((id) => c.clauses.includes(id) || c.clauses.some((x) => x.startsWith(`${id}.`)))) return false;
  if (f.readOnly && c.tier !== 'read-only') return false;
  if (f.grep) {
    const hit = new RegExp(f.grep).test(`${c.id} ${c.title}`);
    if (hit === !!f.invert) return false;
  }
  return true;
}

/** A stable 32-bit hash, so a case lands in the same shard on every machine. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function planCases(all: CaseDef[], filters: CaseFilters): Plan {
  const byId = new Map(all.map((c) => [c.id, c]));
  let selected = all.filter((c) => matches(c, filters));
  // Shards split by the id of the root of a prerequisite chain so chains stay together.
  if (filters.shard) {
    const { index, count } = filters.shard;
    const root = (c: CaseDef): string => (c.requires[0] && byId.get(c.requires[0]) ? root(byId.get(c.requires[0]) as CaseDef) : c.id);
    selected = selected.filter((c) => hash(root(c)) % count === index - 1);
  }
  const chosen = new Set(selected.map((c) => c.id));
  const pulledIn = new Set<string>();
  const pull = (c: CaseDef): void => {
    for (const r of c.requires) {
      const dep = byId.get(r);
      if (dep && !chosen.has(r)) {
        chosen.add(r);
        pulledIn.add(r);
        pull(dep);
      }
    }
  };
  selected.forEach(pull);
  // File order, then order within the file; a case always after what it requires.
  const ordered: CaseDef[] = [];
  const placed = new Set<string>();
  const place = (c: CaseDef, trail: Set<string>): void => {
    if (placed.has(c.id) || trail.has(c.id)) return;
    trail.add(c.id);
    for (const r of c.requires) {
      const dep = byId.get(r);
      if (dep && chosen.has(r)) place(dep, trail);
    }
    placed.add(c.id);
    ordered.push(c);
  };
  for (const c of all) if (chosen.has(c.id)) place(c, new Set());
  return { cases: ordered, pulledIn };
}
