import { isSuccess, kindIs, nextLinkOf, requestUrl, setNextLink } from '../support.js';
import type { Persona } from '../types.js';

/** A cursor past any record the simulator can hold: the page it names is always empty. */
const PAST_THE_END = Buffer.from('after:999999999999999', 'utf8').toString('base64url');

export const emptyPageEnd: Persona = {
  name: 'empty-page-end',
  kind: 'variant',
  description: 'The last page of a list links to an empty page (which links to itself), rather than giving next_link null.',
  interprets: ['PAGINATION_END'],
  declared: { paginationEnd: 'empty-page' },
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'list') || !isSuccess(res) || nextLinkOf(res) !== null) return;
      const query = new URLSearchParams(ctx.query);
      query.set('cursor', PAST_THE_END);
      setNextLink(res, requestUrl(ctx, query));
    },
  },
};
