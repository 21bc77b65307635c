import { isSuccess, kindIs, nextLinkOf, requestUrl, setNextLink } from '../support.js';
import type { Persona } from '../types.js';

export const nextLinkToNowhere: Persona = {
  name: 'next-link-to-nowhere',
  kind: 'fault',
  description: 'The last page of a list links on to a page that answers 400 (a cursor the service cannot read), instead of ending.',
  breaks: ['PAGINATION.WALK'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'list') || !isSuccess(res) || nextLinkOf(res) !== null) return;
      const query = new URLSearchParams(ctx.query);
      query.set('cursor', 'stale');
      setNextLink(res, requestUrl(ctx, query));
    },
  },
};
