import type { Persona } from '../types.js';

export const queryTokenAccepted: Persona = {
  name: 'query-token-accepted',
  kind: 'variant',
  description: 'A bearer token is also accepted as an access_token query parameter (RFC 6750 §2.3 lets a server allow it).',
  interprets: ['TOKEN_IN_QUERY'],
  hooks: {
    authenticate(ctx, verdict) {
      const token = ctx.query.get('access_token');
      if (verdict.ok || verdict.reason !== 'query' || token === null) return verdict;
      const check = ctx.tokens.check(token);
      return check.ok ? { ok: true, clientId: check.clientId } : { ok: false, reason: check.reason };
    },
  },
};
