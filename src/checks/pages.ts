// Pagination facts a single page cannot show: whether a walk really spanned pages, and whether a walk cut short by
// maxPages (so it never reached its end) still served each record once and followed no link twice.
import { readPath } from '../core/paths.js';
import type { Exchange } from '../core/results.js';
import { walkRecords, endMarker, foreignNextLink, foreignStop } from './lists.js';
import { bodyObject, defineCheck, judge, judgesEndpoint, outcomeOf, show } from './registry.js';

const pageLength = (ex: Exchange): number => {
  const data = bodyObject(ex)?.['data'];
  return Array.isArray(data) ? data.length : 0;
};

/** Key order must not make two copies of one record look different. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export const multiPage = defineCheck({
  id: 'multi-page',
  description: 'The walk reached a second page that holds records, so its first page was cut at the page size.',
  clauses: ['PAGINATION.WALK'],
  run: ({ stepExchanges }) => {
    // A second page with records is the only proof that the first one was full: an empty last page is not.
    const filled = stepExchanges.filter((ex) => pageLength(ex) > 0).length;
    return [judge('PAGINATION.WALK', filled >= 2, `${filled} page(s) with records`,
      `the walk has ${filled} page(s) with records (${stepExchanges.length} page(s) in all), so the page size cannot be read from it`)];
  },
});

export const walkNoRepeats = defineCheck({
  id: 'walk-no-repeats',
  description: 'A walk, even one stopped by maxPages, serves no record twice (by `field`, else the whole record) and follows no link twice.',
  clauses: ['PAGINATION.WALK'],
  run: ({ stepExchanges, args }) => {
    const field = typeof args['field'] === 'string' ? args['field'] : undefined;
    const maxPages = typeof args['maxPages'] === 'number' ? args['maxPages'] : 1000;
    // Without an id (ATS job offers have none and their reference may not be unique) only a whole record repeated
    // word for word counts as the same record.
    const keyOf = (r: unknown): string => (field ? canonical(readPath(r, field)) : canonical(r));
    const seen = new Map<string, number>();
    for (const r of walkRecords(stepExchanges)) seen.set(keyOf(r), (seen.get(keyOf(r)) ?? 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
    const last = stepExchanges[stepExchanges.length - 1];
    const lastOk = !!last?.response && outcomeOf(last) === 'success';
    const stoppedEarly = !!last && lastOk && endMarker(last) === undefined && stepExchanges.length < maxPages;
    const brokeOff = stepExchanges.length > 1 && !!last && !lastOk;
    const foreign = last ? foreignNextLink(last) : undefined;
    const problems = [
      stoppedEarly && foreign ? foreignStop(foreign, stepExchanges.length) : '',
      brokeOff ? `meta.next_link of page ${stepExchanges.length - 1} led to ${last?.response ? `status ${last.response.status}` : 'no answer'}, not to the next page` : '',
      twice.length ? `${twice.length} record(s) came more than once across ${stepExchanges.length} page(s): ${show(twice.slice(0, 2), 200)}` : '',
      stoppedEarly && !foreign ? `after ${stepExchanges.length} page(s) meta.next_link ${show(readPath(last?.response?.json, 'meta.next_link'))} points back to a page already read (a loop) or cannot be followed` : '',
    ].filter(Boolean);
    return [judge('PAGINATION.WALK', problems.length === 0,
      `${seen.size} distinct record(s) over ${stepExchanges.length} page(s), none twice`, problems.join('; '))];
  },
});

export const nextLinkSameOrigin = defineCheck({
  id: 'next-link-same-origin',
  description: "meta.next_link stays on the target's origin (scheme, host and port): a link elsewhere is never followed, since following it would hand the access token to another host.",
  clauses: ['PAGINATION.WALK'],
  global: true,
  appliesTo: (ctx) => judgesEndpoint('PAGINATION.WALK', ctx) && typeof readPath(ctx.exchange.response?.json, 'meta.next_link') === 'string',
  run: ({ exchange }) => {
    const link = foreignNextLink(exchange);
    return [judge('PAGINATION.WALK', link === undefined, "meta.next_link stays on the target's origin",
      `meta.next_link is ${show(link)}, which leaves the target's origin ${new URL(exchange.request.url).origin}: not followed, `
      + 'so no page after this one was read (the harness sends nothing, the token least of all, to another origin)')];
  },
});
