import type { Persona } from '../types.js';

export const lowercaseTokenType: Persona = {
  name: 'lowercase-token-type',
  kind: 'variant',
  description: 'The token response names token_type "bearer" in lower case (RFC 6749 §5.1: case-insensitive).',
  interprets: [],
  hooks: {
    afterHandler(_ctx, res) {
      if (res.outcome === 'token') res.body['token_type'] = 'bearer';
    },
  },
};
