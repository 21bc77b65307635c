import { tokenRequestFields } from '../support.js';
import type { Persona } from '../types.js';

/** How a case-insensitive, PAD SPACE collation (MySQL's utf8mb4_general_ci) sees a string: trailing spaces and case gone. */
const collated = (text: string): string => text.replace(/ +$/, '').toLowerCase();

export const credentialsCaseInsensitive: Persona = {
  name: 'credentials-case-insensitive',
  kind: 'fault',
  forExploration: true,
  description: 'The token endpoint looks the client up in a case-insensitive, trailing-space-blind collation: a client_id or client_secret that differs from the right one only in letter case or trailing spaces gets a token.',
  breaks: ['AUTH.CREDENTIALS_VERIFIED'],
  hooks: {
    // Swapping the right credentials in before the endpoint compares them is what "the database said they match" looks like.
    beforeValidation(ctx) {
      const fields = tokenRequestFields(ctx);
      if (!fields) return;
      const { clientId, clientSecret } = ctx.options;
      const id = fields['client_id'];
      const secret = fields['client_secret'];
      if (typeof id !== 'string' || typeof secret !== 'string') return;
      if (collated(id) === collated(clientId) && collated(secret) === collated(clientSecret)) {
        fields['client_id'] = clientId;
        fields['client_secret'] = clientSecret;
      }
    },
  },
};
