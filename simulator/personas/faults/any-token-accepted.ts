import type { Persona } from '../types.js';

export const anyTokenAccepted: Persona = {
  name: 'any-token-accepted',
  kind: 'fault',
  description: 'A request needs an Authorization: Bearer header, but any token in it is accepted (only its presence is checked).',
  breaks: ['AUTH.BEARER_REQUIRED'],
  hooks: {
    authenticate: (ctx, verdict) => (!verdict.ok && (verdict.reason === 'invalid' || verdict.reason === 'expired')
      ? { ok: true, clientId: ctx.options.clientId }
      : verdict),
  },
};
