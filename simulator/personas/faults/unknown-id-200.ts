import { dataReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const unknownId200: Persona = {
  name: 'unknown-id-200',
  kind: 'fault',
  description: 'GET of a record that does not exist answers 200 with empty data instead of 404.',
  breaks: ['RESOURCE.UNKNOWN_ID'],
  hooks: {
    // GET only: a PATCH of a deleted record answered with success would also break DELETE.REMOVES.
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'get') && res.outcome === 'notFound' && ctx.stage === 'handler') return dataReply('No record found.', []);
    },
  },
};
