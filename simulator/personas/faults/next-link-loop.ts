import { isSuccess, kindIs, nextLinkOf, requestUrl, setNextLink } from '../support.js';
import type { Persona } from '../types.js';

export const nextLinkLoop: Persona = {
  name: 'next-link-loop',
  kind: 'fault',
  description: 'The last page of a list that spans pages links back to the first page instead of ending.',
  breaks: ['PAGINATION.WALK'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'list') || !isSuccess(res) || nextLinkOf(res) !== null || !ctx.query.has('cursor')) return;
      const first = new URLSearchParams(ctx.query);
      first.delete('cursor');
      setNextLink(res, requestUrl(ctx, first));
    },
  },
};
