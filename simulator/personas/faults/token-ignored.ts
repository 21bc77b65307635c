import type { Persona } from '../types.js';

export const tokenIgnored: Persona = {
  name: 'token-ignored',
  kind: 'fault',
  description: 'Bearer authentication is not enforced: requests with no token, a Basic credential or a made-up token are served.',
  breaks: ['AUTH.BEARER_REQUIRED'],
  hooks: {
    authenticate: (ctx) => ({ ok: true, clientId: ctx.options.clientId }),
  },
};
