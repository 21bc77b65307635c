import type { Persona } from '../types.js';

export const expiresInMilliseconds: Persona = {
  name: 'expires-in-milliseconds',
  kind: 'variant',
  description: 'The token response gives expires_in in milliseconds (3600000 for an hour).',
  interprets: ['EXPIRES_IN_UNIT'],
  declared: { expiresInUnit: 'milliseconds' },
  hooks: {
    afterHandler(_ctx, res) {
      const seconds = res.body['expires_in'];
      if (res.outcome === 'token' && typeof seconds === 'number') res.body['expires_in'] = seconds * 1000;
    },
  },
};
