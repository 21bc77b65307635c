// Filters and pagination, judged over every record of a walk through meta.next_link.
import { readPath } from '../core/paths.js';
import type { Exchange } from '../core/results.js';
import { bodyObject, defineCheck, fail, judge, outcomeOf, pass, show, type CheckContext } from './registry.js';

/** Every record of every page of the step, in order. */
export function walkRecords(exchanges: Exchange[]): unknown[] {
  return exchanges.flatMap((ex) => {
    const data = bodyObject(ex)?.['data'];
    return Array.isArray(data) ? data : [];
  });
}

function records(ctx: CheckContext): unknown[] {
  return walkRecords(ctx.stepExchanges);
}

const clauseArg = (ctx: CheckContext, fallback: string): string => (typeof ctx.args['clause'] === 'string' ? ctx.args['clause'] : fallback);

export const allMatch = defineCheck({
  id: 'all-match',
  description: 'Every record returned has `field` in `in` (a filter keeps no other record).',
  clauses: ['FILTER.REFERENCE', 'FILTER.SEVERAL_REFERENCES', 'FILTER.STATUS', 'PAGINATION.FILTERS_KEPT'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'FILTER.REFERENCE');
    const field = String(ctx.args['field']);
    const allowed = [ctx.args['in']].flat().map(String);
    const all = records(ctx);
    const strays = all.filter((r) => !allowed.includes(String(readPath(r, field))));
    return [judge(clause, strays.length === 0, `${all.length} record(s), all with ${field} in the filter`,
      `${strays.length} of ${all.length} record(s) do not match the filter ${field} in ${show(allowed, 80)}: e.g. ${show(strays.slice(0, 2).map((r) => readPath(r, field)))}`)];
  },
});

export const containsAll = defineCheck({
  id: 'contains-all',
  description: 'Every value of `values` appears in `field` of some returned record (the filter keeps what it should).',
  clauses: ['FILTER.REFERENCE', 'FILTER.SEVERAL_REFERENCES', 'FILTER.DATE_BOUNDS', 'FILTER.STATUS', 'PAGINATION.WALK'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'FILTER.REFERENCE');
    const field = String(ctx.args['field']);
    const wanted = [ctx.args['values']].flat();
    const got = new Set(records(ctx).map((r) => String(readPath(r, field))));
    const missing = wanted.filter((v) => !got.has(String(v)));
    return [judge(clause, missing.length === 0, `all ${wanted.length} expected ${field} value(s) returned`,
      `${missing.length} of ${wanted.length} expected record(s) not returned (${field} ${show(missing.slice(0, 3))})`)];
  },
});

export const noneOf = defineCheck({
  id: 'none-of',
  description: 'No returned record has `field` in `values` (records outside a filter are left out).',
  clauses: ['FILTER.DATE_BOUNDS', 'FILTER.STATUS', 'FILTER.REFERENCE'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'FILTER.DATE_BOUNDS');
    const field = String(ctx.args['field']);
    const unwanted = [ctx.args['values']].flat().map(String);
    const strays = records(ctx).map((r) => readPath(r, field)).filter((v) => unwanted.includes(String(v)));
    return [judge(clause, strays.length === 0, `none of the ${unwanted.length} excluded record(s) returned`,
      `${strays.length} record(s) outside the filter returned (${field} ${show(strays.slice(0, 3))})`)];
  },
});

export const walkExactlyOnce = defineCheck({
  id: 'walk-exactly-once',
  description: 'The walk through meta.next_link ends by itself, and no record (by `field`) comes twice.',
  clauses: ['PAGINATION.WALK'],
  run: (ctx) => {
    const field = String(ctx.args['field']);
    const last = ctx.stepExchanges[ctx.stepExchanges.length - 1];
    // A first page that failed is no walk at all: the step's outcome says so, and neither an end nor repeats exist.
    if (ctx.stepExchanges.length === 1 && (!last?.response || outcomeOf(last) === 'failure')) return [];
    const endedBy = last ? endMarker(last) : undefined;
    const seen = new Map<unknown, number>();
    for (const r of records(ctx)) seen.set(readPath(r, field), (seen.get(readPath(r, field)) ?? 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
    const brokeOff = ctx.stepExchanges.length > 1 && !!last && (!last.response || outcomeOf(last) === 'failure');
    const problems = [
      brokeOff ? `meta.next_link of page ${ctx.stepExchanges.length - 1} led to ${last?.response ? `status ${last.response.status}` : 'no answer'}, not to the next page` : '',
      !brokeOff && endedBy === undefined && last && foreignNextLink(last) ? foreignStop(foreignNextLink(last) as string, ctx.stepExchanges.length) : '',
      !brokeOff && endedBy === undefined && !(last && foreignNextLink(last)) ? `the walk did not end: ${ctx.stepExchanges.length} page(s) followed and meta.next_link still points on (loop or no end)` : '',
      twice.length ? `${twice.length} record(s) came more than once across ${ctx.stepExchanges.length} page(s): ${show(twice.slice(0, 3))}` : '',
    ].filter(Boolean);
    return [problems.length ? fail('PAGINATION.WALK', problems.join('; '))
      : pass('PAGINATION.WALK', `${seen.size} record(s) over ${ctx.stepExchanges.length} page(s), each once; ended by ${endedBy}`)];
  },
});

/**
 * The page's meta.next_link when it resolves to another origin (scheme, host, port; userinfo never counts) than
 * the page itself: the harness never follows such a link, so the token cannot be handed to a host the user did
 * not name. Undefined for a same-origin link, a missing one, or one that is not a URL at all.
 */
export function foreignNextLink(ex: Exchange): string | undefined {
  const link = readPath(ex.response?.json, 'meta.next_link');
  if (typeof link !== 'string' || link === '') return undefined;
  try {
    return new URL(link, ex.request.url).origin === new URL(ex.request.url).origin ? undefined : link;
  } catch {
    return undefined;
  }
}

/** Why a walk that stopped at a foreign next_link ended there, for the walk checks' messages. */
export const foreignStop = (link: string, page: number): string =>
  `the walk stopped after page ${page}: its meta.next_link ${show(link)} leaves the target's origin and was not followed`;

/** How a page says it is the last (interpretation PAGINATION_END), or undefined when it points on. */
export function endMarker(ex: Exchange): 'null' | 'empty-string' | 'absent' | 'empty-page' | undefined {
  // A page that failed (a next_link leading nowhere) is no end marker: the walk broke off there.
  if (!ex.response || outcomeOf(ex) === 'failure') return undefined;
  const body = bodyObject(ex);
  const meta = body?.['meta'];
  const link = meta && typeof meta === 'object' ? (meta as Record<string, unknown>)['next_link'] : undefined;
  if (link === null) return 'null';
  if (link === '') return 'empty-string';
  if (link === undefined) return 'absent';
  const data = body?.['data'];
  if (Array.isArray(data) && data.length === 0) return 'empty-page';
  return undefined;
}

export const dateWithin = defineCheck({
  id: 'date-within',
  description: 'Every returned record has `field` within [min, max] (compared as instants, a day of slack for date-only bounds).',
  clauses: ['FILTER.DATE_BOUNDS'],
  run: (ctx) => {
    const field = String(ctx.args['field']);
    const slack = 86_400_000;
    const min = ctx.args['min'] === undefined ? -Infinity : Date.parse(String(ctx.args['min'])) - slack;
    const max = ctx.args['max'] === undefined ? Infinity : Date.parse(String(ctx.args['max'])) + slack;
    const all = records(ctx);
    const strays = all.filter((r) => {
      const t = Date.parse(String(readPath(r, field)));
      return Number.isNaN(t) || t < min || t > max;
    });
    return [strays.length === 0 ? pass('FILTER.DATE_BOUNDS', `${all.length} record(s) within the bounds`)
      : fail('FILTER.DATE_BOUNDS', `${strays.length} of ${all.length} record(s) outside [${show(ctx.args['min'])}, ${show(ctx.args['max'])}]: ${show(strays.slice(0, 2).map((r) => readPath(r, field)))}`)];
  },
});

export const severalReferences = defineCheck({
  id: 'several-references',
  description: 'A filter on several `values` of `field` returns records of each of them and of no other. An answer that is no success, holds records of other values, or none of any value asked for is inconclusive (the list encoding may not have been understood); records of some values only, and no others, is a failure.',
  clauses: ['FILTER.SEVERAL_REFERENCES'],
  run: (ctx) => {
    const clause = clauseArg(ctx, 'FILTER.SEVERAL_REFERENCES');
    const field = String(ctx.args['field']);
    const wanted = [ctx.args['values']].flat().map(String);
    const status = ctx.exchange.response?.status;
    const encoded = new URL(ctx.exchange.request.url).search;
    if (outcomeOf(ctx.exchange) !== 'success') {
      return [{ clause, passed: false, inconclusive: true, message: `status ${status} for ${show(encoded, 120)}: the list encoding was not accepted` }];
    }
    const got = records(ctx).map((r) => String(readPath(r, field)));
    const strays = got.filter((v) => !wanted.includes(v));
    const found = wanted.filter((v) => got.includes(v));
    if (strays.length > 0) {
      return [{ clause, passed: false, inconclusive: true, message: `${strays.length} record(s) of other ${field} values for ${show(encoded, 120)} (e.g. ${show(strays.slice(0, 2))}): the list was not read as a filter` }];
    }
    if (found.length === 0) {
      return [{ clause, passed: false, inconclusive: true, message: `no record of any of the ${wanted.length} ${field} values for ${show(encoded, 120)}: the list was read as one value` }];
    }
    const missing = wanted.filter((v) => !found.includes(v));
    return [judge(clause, missing.length === 0, `the records of all ${wanted.length} ${field} values and no other`,
      `status ${status}: only the records of ${found.length} of ${wanted.length} ${field} values came back (missing ${show(missing.slice(0, 3))}), and none of any other value: the filter dropped the rest`)];
  },
});
