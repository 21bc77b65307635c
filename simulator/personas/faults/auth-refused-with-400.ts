import type { Persona } from '../types.js';

export const authRefusedWith400: Persona = {
  name: 'auth-refused-with-400',
  kind: 'fault',
  description: 'A request without valid credentials is refused with 400 Bad Request instead of 401.',
  breaks: ['AUTH.REFUSAL_STATUS'],
  hooks: {
    afterHandler(ctx, res) {
      if (res.outcome === 'unauthorized' && ctx.operation?.kind !== 'token') res.status = 400;
    },
  },
};
