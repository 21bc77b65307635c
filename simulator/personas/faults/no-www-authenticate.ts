import type { Persona } from '../types.js';

export const noWwwAuthenticate: Persona = {
  name: 'no-www-authenticate',
  kind: 'fault',
  description: 'A 401 refusal carries no WWW-Authenticate challenge.',
  breaks: ['AUTH.WWW_AUTHENTICATE'],
  hooks: {
    afterHandler(_ctx, res) {
      delete res.headers['www-authenticate'];
    },
  },
};
