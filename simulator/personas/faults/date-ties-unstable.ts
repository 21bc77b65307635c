import { errorReply } from '../../envelope.js';
import { HANDLERS } from '../../handlers/index.js';
import { dataRecords, requestUrl, setNextLink } from '../support.js';
import type { JsonObject, Persona, RequestContext, SimResponse } from '../types.js';

/** Records one list answer may gather before it is paged; beyond it the oldest are not reachable. */
const MAX_RECORDS = 100_000;
const PAGE = /^[1-9][0-9]{0,5}$/;

/** Every record the list's filters match, from the simulator's own list handler. */
function allMatching(ctx: RequestContext, query: URLSearchParams): SimResponse {
  const handler = HANDLERS[ctx.operation?.operationId ?? ''];
  if (!handler) throw new Error('rdx simulator: no list handler');
  return handler({ ...ctx, query, options: { ...ctx.options, pageSize: MAX_RECORDS } });
}

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
      if (ctx.operation?.kind !== 'list') return;
      const pageText = ctx.query.get('page') ?? '1';
      if (!PAGE.test(pageText)) return errorReply('validation', 'The query parameter page must be a page number from 1.');
      const page = Number(pageText);
      const filters = new URLSearchParams(ctx.query);
      filters.delete('page');
      const all = allMatching(ctx, filters);
      if (all.status >= 300) return all;
      // The database orders by date alone; how it orders a tie depends on the query plan, here on the page asked.
      const keyed = dataRecords(all).map((r) => ({ r, date: dateOf(r), tie: scramble(`${page}:${JSON.stringify(r)}`) }));
      const records = keyed.sort((a, b) => a.date - b.date || a.tie - b.tie).map((x) => x.r);
      const size = ctx.options.pageSize;
      const slice = records.slice((page - 1) * size, page * size);
      const next = new URLSearchParams(filters);
      next.set('page', String(page + 1));
      const res: SimResponse = { ...all, body: { message: `${slice.length} record(s) on page ${page}.`, data: slice } };
      setNextLink(res, page * size < records.length ? requestUrl(ctx, next) : null);
      return res;
    },
  },
};
