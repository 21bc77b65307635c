import { errorReply } from '../../envelope.js';
import type { Persona } from '../types.js';

export const jsonOnlyToken: Persona = {
  name: 'json-only-token',
  kind: 'variant',
  description: 'The token endpoint takes a JSON body only, as the spec shows; the RFC 6749 form encoding gets 415.',
  interprets: ['TOKEN_REQUEST_ENCODING'],
  hooks: {
    onRequest(ctx) {
      const type = (ctx.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (ctx.method === 'POST' && ctx.path === '/oauth2/token' && type === 'application/x-www-form-urlencoded') {
        return errorReply('unsupportedMediaType', 'invalid_request: the token request must be a JSON body.');
      }
    },
  },
};
