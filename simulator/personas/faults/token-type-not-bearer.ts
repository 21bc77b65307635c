import type { Persona } from '../types.js';

export const tokenTypeNotBearer: Persona = {
  name: 'token-type-not-bearer',
  kind: 'fault',
  description: 'The token response names token_type "Token", which is no scheme the requests can use.',
  breaks: ['AUTH.TOKEN_TYPE_BEARER'],
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'token') res.body['token_type'] = 'Token';
    },
  },
};
