import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const batchErrorsWithoutData: Persona = {
  name: 'batch-errors-without-data',
  kind: 'fault',
  description: 'An all-valid batch answers {message, errors: []}: neither of the listed success variants, since errors comes without data.',
  breaks: ['BATCH.VARIANT'],
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'batchCreate') && res.outcome === 'created') res.body = { message: res.body['message'], errors: [] };
    },
  },
};
