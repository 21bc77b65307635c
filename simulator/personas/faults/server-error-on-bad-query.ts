import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const serverErrorOnBadQuery: Persona = {
  name: 'server-error-on-bad-query',
  kind: 'fault',
  description: 'A list query the service cannot read (a date filter that is no date) gets 500, with the error body, instead of a 4xx.',
  breaks: ['HTTP.NO_SERVER_ERROR'],
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'list') && res.outcome === 'validation') res.status = 500;
    },
  },
};
