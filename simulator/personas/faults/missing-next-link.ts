import { kindIs, nextLinkOf } from '../support.js';
import type { Persona } from '../types.js';

export const missingNextLink: Persona = {
  name: 'missing-next-link',
  kind: 'fault',
  description: 'A list answer with no further page (and PUT /users) leaves meta.next_link out instead of giving null.',
  breaks: ['ENVELOPE.NEXT_LINK'],
  hooks: {
    // Only where the link would be null: pages that have a successor keep it, so walks still work.
    afterHandler(ctx, res) {
      const meta = res.body['meta'];
      if (kindIs(ctx, 'list', 'usersReplace') && nextLinkOf(res) === null && typeof meta === 'object' && meta !== null) {
        delete (meta as Record<string, unknown>)['next_link'];
      }
    },
  },
};
