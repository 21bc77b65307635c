import { formatLink, isSuccess, kindIs, nextLinkOf, parseLink } from '../support.js';
import type { Persona } from '../types.js';

export const filtersDroppedOnNextPage: Persona = {
  name: 'filters-dropped-on-next-page',
  kind: 'fault',
  description: 'meta.next_link carries only the page cursor: the filters of the first request are gone from the second page on.',
  breaks: ['PAGINATION.FILTERS_KEPT'],
  hooks: {
    afterHandler(ctx, res) {
      const link = nextLinkOf(res);
      if (!kindIs(ctx, 'list') || !isSuccess(res) || typeof link !== 'string' || link === '') return;
      const url = parseLink(ctx, link);
      const cursor = url.searchParams.get('cursor');
      url.search = cursor === null ? '' : new URLSearchParams({ cursor }).toString();
      (res.body['meta'] as Record<string, unknown>)['next_link'] = formatLink(link, url);
    },
  },
};
