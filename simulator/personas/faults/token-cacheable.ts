import type { Persona } from '../types.js';

export const tokenCacheable: Persona = {
  name: 'token-cacheable',
  kind: 'fault',
  description: 'The token response carries no Cache-Control: no-store, so a cache may keep the token.',
  breaks: ['AUTH.TOKEN_NO_STORE'],
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome !== 'token') return;
      delete res.headers['cache-control'];
      delete res.headers['pragma'];
    },
  },
};
