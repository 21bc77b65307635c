import type { Persona } from '../types.js';

export const rateLimited: Persona = {
  name: 'rate-limited',
  kind: 'variant',
  description: 'Limits each access token to 40 requests per second with a burst of 80, as vendors do in production: over it, 429 with Retry-After in seconds and the error body. A client waits and sends again.',
  options: { rateLimit: '40/80' },
  hooks: {},
};
