import type { Persona } from '../types.js';

export const shortLivedTokens: Persona = {
  name: 'short-lived-tokens',
  kind: 'variant',
  description: 'Access tokens live 2 seconds (expires_in: 2): a client must fetch new ones during a run, and expiry can be seen.',
  interprets: ['EXPIRED_TOKEN'],
  options: { tokenTtl: 2 },
  hooks: {},
};
