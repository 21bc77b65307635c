import type { Persona } from '../types.js';

export const relativeNextLink: Persona = {
  name: 'relative-next-link',
  kind: 'variant',
  description: 'meta.next_link is a path with its query (/jobboard/activities?…&cursor=…), not an absolute URL.',
  interprets: ['NEXT_LINK_FORM'],
  declared: { nextLinkForm: 'relative' },
  hooks: {
    afterHandler(_ctx, res) {
      const meta = res.body['meta'] as { next_link?: unknown } | undefined;
      if (typeof meta?.next_link !== 'string' || meta.next_link === '') return;
      const url = new URL(meta.next_link);
      meta.next_link = `${url.pathname}${url.search}`;
    },
  },
};
