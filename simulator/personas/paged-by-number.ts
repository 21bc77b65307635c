// Lists paged by page number (?page=2) over every record the filters match, in an order the persona chooses: how a
// service that pages by offset behaves (newest first as a legal variant; ties in an unstable order as a fault).
import { errorReply } from '../envelope.js';
import { HANDLERS } from '../handlers/index.js';
import { dataRecords, requestUrl, setNextLink } from './support.js';
import type { JsonObject, RequestContext, SimResponse } from './types.js';

/** Records one list answer may gather before it is paged; beyond it the oldest are not reachable. */
const MAX_RECORDS = 100_000;
const PAGE = /^[1-9][0-9]{0,5}$/;

/** Every record the list's filters match, oldest first, from the simulator's own list handler. */
function allMatching(ctx: RequestContext, query: URLSearchParams): SimResponse {
  const handler = HANDLERS[ctx.operation?.operationId ?? ''];
  if (!handler) throw new Error('rdx simulator: no list handler');
  return handler({ ...ctx, query, options: { ...ctx.options, pageSize: MAX_RECORDS } });
}

/**
 * The answer to a list request, paged by number over the matching records as `order` arranges them for that page;
 * undefined for any other request (the simulator answers it as usual).
 */
export function pagedByNumber(ctx: RequestContext, order: (records: JsonObject[], page: number) => JsonObject[]): SimResponse | undefined {
  if (ctx.operation?.kind !== 'list') return undefined;
  const pageText = ctx.query.get('page') ?? '1';
  if (!PAGE.test(pageText)) return errorReply('validation', 'The query parameter page must be a page number from 1.');
  const page = Number(pageText);
  const filters = new URLSearchParams(ctx.query);
  filters.delete('page');
  const all = allMatching(ctx, filters);
  if (all.status >= 300) return all;
  const records = order(dataRecords(all), page);
  const size = ctx.options.pageSize;
  const slice = records.slice((page - 1) * size, page * size);
  const next = new URLSearchParams(filters);
  next.set('page', String(page + 1));
  const res: SimResponse = { ...all, body: { message: `${slice.length} record(s) on page ${page}.`, data: slice } };
  setNextLink(res, page * size < records.length ? requestUrl(ctx, next) : null);
  return res;
}
