import type { Persona } from '../types.js';

export const patchWithoutBearerCheck: Persona = {
  name: 'patch-without-bearer-check',
  kind: 'fault',
  description: 'The PATCH endpoints (6, 8, 13, 17, 19) forget the bearer check: a request without a token, with a made-up one or with Basic credentials is served and its change stored.',
  breaks: ['AUTH.BEARER_REQUIRED'],
  hooks: {
    authenticate: (ctx, verdict) => (!verdict.ok && ctx.method === 'PATCH' ? { ok: true, clientId: ctx.options.clientId } : verdict),
  },
};
