import { bearerToken, type TokenStore } from '../../auth.js';
import type { Persona } from '../types.js';

/** Expired tokens let in, per simulator: the token store forgets a token the first time it finds it expired. */
const accepted = new WeakMap<TokenStore, Set<string>>();
/** Enough for any harness run; past it the oldest are forgotten, so memory stays bounded. */
const MAX_REMEMBERED = 10_000;

export const expiredTokenAccepted: Persona = {
  name: 'expired-token-accepted',
  kind: 'fault',
  description: 'Tokens are never refused for having expired; expires_in is 2 s so that a harness run can see it.',
  breaks: ['AUTH.EXPIRED_TOKEN_REFUSED'],
  // The harness checks expiry only when expires_in is at most 5 s (interpretation EXPIRED_TOKEN).
  options: { tokenTtl: 2 },
  hooks: {
    authenticate(ctx, verdict) {
      if (verdict.ok) return verdict;
      const token = bearerToken(ctx.headers.authorization);
      let seen = accepted.get(ctx.tokens);
      if (!seen) {
        seen = new Set();
        accepted.set(ctx.tokens, seen);
      }
      if (token === undefined || (verdict.reason !== 'expired' && !seen.has(token))) return verdict;
      if (seen.size >= MAX_REMEMBERED) seen.delete(seen.values().next().value as string);
      seen.add(token);
      return { ok: true, clientId: ctx.options.clientId };
    },
  },
};
