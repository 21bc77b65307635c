import type { Persona } from '../types.js';

export const oauthErrorOnTokenFailure: Persona = {
  name: 'oauth-error-on-token-failure',
  kind: 'fault',
  description: 'A refused token request answers the RFC 6749 error object {error, error_description}, not the spec\'s error body.',
  breaks: ['AUTH.TOKEN_FAILURE'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.kind !== 'token' || res.status < 400) return;
      const code = res.outcome === 'unauthorized' ? 'invalid_client' : 'invalid_request';
      res.body = { error: code, error_description: String(res.body['message'] ?? code) };
    },
  },
};
