import type { Persona } from '../types.js';

export const plainText429: Persona = {
  name: 'plain-text-429',
  kind: 'fault',
  description: 'Rate-limits each access token (100 per second, burst 10) and answers 429 as plain text "Too Many Requests", as a gateway in front would, not with the error body.',
  breaks: ['ENVELOPE.ERROR_BODY'],
  options: { rateLimit: '100/10' },
  hooks: {
    serialize: (_ctx, res) => (res.outcome === 'throttled'
      ? { status: 429, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' }, body: 'Too Many Requests' }
      : undefined),
  },
};
