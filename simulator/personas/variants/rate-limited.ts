import type { Persona } from '../types.js';

export const rateLimited: Persona = {
  name: 'rate-limited',
  kind: 'variant',
  description: 'Limits each access token to 40 requests per second with a burst of 80, as vendors do in production, and its DELETEs to 10 per second with a burst of 3 (writes limited apart): over either, 429 with Retry-After in seconds and the error body. A client waits and sends again, in its end-of-run sweep too.',
  options: { rateLimit: '40/80', deleteRateLimit: '10/3' },
  hooks: {},
};
