import { errorReply } from '../../envelope.js';
import { tokenRequestFields } from '../support.js';
import type { Persona } from '../types.js';

export const grantTypeRequired: Persona = {
  name: 'grant-type-required',
  kind: 'fault',
  description: 'The token endpoint refuses a request without grant_type, which the token request table marks Required: no.',
  breaks: ['AUTH.GRANT_TYPE_OPTIONAL'],
  hooks: {
    beforeHandler(ctx) {
      const fields = tokenRequestFields(ctx);
      if (fields && !('grant_type' in fields)) return errorReply('validation', 'invalid_request: grant_type is required.');
    },
  },
};
