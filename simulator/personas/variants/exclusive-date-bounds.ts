import { DAY_MS, parseIsoDate } from '../../dates.js';
import { formatLink, kindIs, nextLinkOf, parseLink } from '../support.js';
import type { Persona, RequestContext } from '../types.js';

const BOUNDS: Readonly<Record<string, 'min' | 'max'>> = {
  min_publication_date: 'min', max_publication_date: 'max', min_date: 'min', max_date: 'max',
};

/** The bounds as the client sent them, so next_link carries those and not the shifted ones (which would shift again). */
const sent = new WeakMap<RequestContext, [string, string][]>();

/** The inclusive bound that excludes the given one: a day further for a calendar date, a millisecond for a date-time. */
function shifted(text: string, bound: 'min' | 'max'): string | undefined {
  const parsed = parseIsoDate(text);
  if (!parsed) return undefined;
  const step = (bound === 'min' ? 1 : -1) * (parsed.dateOnly ? DAY_MS : 1);
  const iso = new Date(parsed.ms + step).toISOString();
  return parsed.dateOnly ? iso.slice(0, 10) : iso;
}

export const exclusiveDateBounds: Persona = {
  name: 'exclusive-date-bounds',
  kind: 'variant',
  description: 'Date filters are exclusive: a record dated exactly on a min or max bound is left out.',
  interprets: ['DATE_FILTER_INCLUSIVITY'],
  declared: { dateFilterInclusive: false },
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'list')) return;
      const originals: [string, string][] = [];
      for (const [name, bound] of Object.entries(BOUNDS)) {
        const values = ctx.query.getAll(name);
        const next = values.length === 1 ? shifted(values[0] as string, bound) : undefined;
        if (next === undefined) continue;
        originals.push([name, values[0] as string]);
        ctx.query.set(name, next);
      }
      sent.set(ctx, originals);
    },
    afterHandler(ctx, res) {
      const originals = sent.get(ctx);
      const link = nextLinkOf(res);
      if (!originals?.length || typeof link !== 'string' || link === '') return;
      const url = parseLink(ctx, link);
      for (const [name, value] of originals) url.searchParams.set(name, value);
      (res.body['meta'] as Record<string, unknown>)['next_link'] = formatLink(link, url);
    },
  },
};
