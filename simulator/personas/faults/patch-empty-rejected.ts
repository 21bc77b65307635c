import { errorReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const patchEmptyRejected: Persona = {
  name: 'patch-empty-rejected',
  kind: 'fault',
  description: 'A PATCH with an empty object is refused (400 "nothing to update") instead of accepted.',
  breaks: ['WRITE.PATCH_EMPTY'],
  hooks: {
    beforeHandler(ctx) {
      const body = ctx.body;
      if (kindIs(ctx, 'patch') && typeof body === 'object' && body !== null && Object.keys(body).length === 0) {
        return errorReply('validation', 'The request body names no field to update.');
      }
    },
  },
};
