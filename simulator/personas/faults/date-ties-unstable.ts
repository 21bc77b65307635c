import { pagedByNumber } from '../paged-by-number.js';
import type { JsonObject, Persona } from '../types.js';

function dateOf(record: JsonObject): number {
  const ms = Date.parse(String(record['publication_at'] ?? record['recorded_at'] ?? ''));
  return Number.isNaN(ms) ? 0 : ms;
}

/** FNV-1a of the text: an order that looks arbitrary, changes with the page number and is the same on every run. */
function scramble(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export const dateTiesUnstable: Persona = {
  name: 'date-ties-unstable',
  kind: 'fault',
  description: 'Lists are sorted by date and paged by page number (?page=2), with no tie-breaker: records sharing a date come in another order on every page, so a walk over them repeats some and skips others.',
  breaks: ['PAGINATION.WALK'],
  hooks: {
    beforeHandler(ctx) {
      // The database orders by date alone; how it orders a tie depends on the query plan, here on the page asked.
      return pagedByNumber(ctx, (records, page) => records
        .map((r) => ({ r, date: dateOf(r), tie: scramble(`${page}:${JSON.stringify(r)}`) }))
        .sort((a, b) => a.date - b.date || a.tie - b.tie)
        .map((x) => x.r));
    },
  },
};
