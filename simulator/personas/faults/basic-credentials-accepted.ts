import { credentialsMatch } from '../../auth.js';
import type { Persona } from '../types.js';

/** The client id and secret of an `Authorization: Basic base64(id:secret)` header, if that is what it is. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const encoded = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export const basicCredentialsAccepted: Persona = {
  name: 'basic-credentials-accepted',
  kind: 'fault',
  description: 'Besides a bearer token, the client id and secret themselves are accepted as Authorization: Basic on every endpoint.',
  breaks: ['AUTH.BEARER_REQUIRED'],
  hooks: {
    authenticate(ctx, verdict) {
      const given = basicCredentials(ctx.headers.authorization);
      if (verdict.ok || !given) return verdict;
      const { clientId, clientSecret } = ctx.options;
      return credentialsMatch({ clientId, clientSecret }, given.id, given.secret) ? { ok: true, clientId } : verdict;
    },
  },
};
