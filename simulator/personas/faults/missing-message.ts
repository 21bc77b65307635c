import { isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const missingMessage: Persona = {
  name: 'missing-message',
  kind: 'fault',
  description: 'Successful reads (GET of one record, the two lists) leave message out of the body.',
  breaks: ['ENVELOPE.MESSAGE'],
  hooks: {
    // Reads only: a batch answer without message would also stop being one of the four batch variants.
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'get', 'list') && isSuccess(res)) delete res.body['message'];
    },
  },
};
