import type { Persona } from '../types.js';

export const tokenWithoutExpiry: Persona = {
  name: 'token-without-expiry',
  kind: 'fault',
  description: 'The token response leaves expires_in out (access_token and token_type only).',
  breaks: ['AUTH.TOKEN_ISSUED'],
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'token') delete res.body['expires_in'];
    },
  },
};
