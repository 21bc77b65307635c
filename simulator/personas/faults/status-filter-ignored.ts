import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const statusFilterIgnored: Persona = {
  name: 'status-filter-ignored',
  kind: 'fault',
  description: 'GET /jobboard/activities ignores the status filter.',
  breaks: ['FILTER.STATUS'],
  hooks: {
    beforeHandler(ctx) {
      if (kindIs(ctx, 'list')) ctx.query.delete('status');
    },
  },
};
