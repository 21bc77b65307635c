import type { Persona } from '../types.js';

export const rateLimitedHttpDate: Persona = {
  name: 'rate-limited-http-date',
  kind: 'variant',
  description: 'Limits each access token to 100 requests per second with a burst of 10, and its DELETEs to 10 per second with a burst of 3, answering 429 with Retry-After as an HTTP-date (RFC 9110 allows either form) and the error body.',
  options: { rateLimit: '100/10', deleteRateLimit: '10/3', rateLimitRetryAfter: 'http-date' },
  hooks: {},
};
