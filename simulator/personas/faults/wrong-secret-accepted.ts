import { tokenRequestFields } from '../support.js';
import type { Persona } from '../types.js';

export const wrongSecretAccepted: Persona = {
  name: 'wrong-secret-accepted',
  kind: 'fault',
  description: 'The token endpoint checks the client_id only: any client_secret given with it gets a token.',
  breaks: ['AUTH.CREDENTIALS_VERIFIED'],
  hooks: {
    // Swapping the right secret in before the endpoint checks it is what "the secret is not compared" looks like.
    beforeValidation(ctx) {
      const fields = tokenRequestFields(ctx);
      if (fields && fields['client_id'] === ctx.options.clientId && typeof fields['client_secret'] === 'string') {
        fields['client_secret'] = ctx.options.clientSecret;
      }
    },
  },
};
