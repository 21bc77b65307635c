// Build-only: the dashboard's listing columns, read from x-rdx-columns of spec/schemas and put into its bundle by
// scripts/bundle.mjs (the shipped dashboard reads only the bundle).
import { loadSchema } from '../src/spec/index.js';

export interface ListingColumn {
  name: string;
  kind: 'text' | 'number' | 'reference';
}

/** The fields a listing of a resource's records shows first (x-rdx-columns of its schema file), with what each holds. */
export function listingColumns(resource: string): ListingColumn[] {
  const schema = loadSchema(`${resource}.json`);
  const names = schema['x-rdx-columns'];
  if (!Array.isArray(names)) return [];
  const props: Record<string, Record<string, unknown>> = {};
  for (const def of Object.values((schema['$defs'] ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const [name, p] of Object.entries((def['properties'] ?? {}) as Record<string, Record<string, unknown>>)) props[name] ??= p;
  }
  return names.map((name) => {
    const p = props[String(name)];
    if (!p) throw new Error(`rdx: spec/schemas/${resource}.json: x-rdx-columns names ${String(name)}, which no def of the file has`);
    const types = Array.isArray(p['type']) ? (p['type'] as string[]) : [String(p['type'] ?? 'string')];
    const kind = typeof p['x-rdx-reference'] === 'string' ? 'reference' : types.some((t) => t === 'integer' || t === 'number') ? 'number' : 'text';
    return { name: String(name), kind };
  });
}
