import { kindIs, nextLinkOf, setNextLink } from '../support.js';
import type { Persona } from '../types.js';

export const emptyStringEnd: Persona = {
  name: 'empty-string-end',
  kind: 'variant',
  description: 'meta.next_link is "" (an empty string), not null, when there is no further page.',
  interprets: ['PAGINATION_END'],
  declared: { paginationEnd: 'empty-string' },
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'list', 'usersReplace') && nextLinkOf(res) === null) setNextLink(res, '');
    },
  },
};
