import type { Persona } from '../types.js';

export const authRefused403: Persona = {
  name: 'auth-refused-403',
  kind: 'variant',
  description: 'Requests without valid credentials are refused with 403 Forbidden (RFC 6750 says 401; the register lets 403 pass).',
  interprets: ['STATUS_CODES'],
  declared: { statusCodes: { unauthorized: 403 } },
  hooks: {
    afterHandler(ctx, res) {
      if (res.outcome === 'unauthorized' && ctx.operation?.kind !== 'token') res.status = 403;
    },
  },
};
