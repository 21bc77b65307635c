import { expect } from 'chai';
import { RateLimited, RateLimits, parseRateLimit, type RateLimitSettings } from './rate-limit.js';

describe('simulator rate limit', () => {
  const attempt = (limits: RateLimits, method: string, now: number, settings: RateLimitSettings = { ...parseRateLimit('40/80'), deletes: { rate: 10, burst: 3 } }): string => {
    try {
      limits.take('token', settings, now, method);
      return 'ok';
    } catch (error) {
      if (error instanceof RateLimited) return `429 after ${error.retryAfter}`;
      throw error;
    }
  };

  it('holds DELETE to its own stricter bucket on top of the token\'s, and refills it at its own rate', () => {
    const limits = new RateLimits();
    expect([1, 2, 3, 4].map(() => attempt(limits, 'DELETE', 0))).to.deep.equal(['ok', 'ok', 'ok', '429 after 1']);
    // Other methods still draw on the general bucket only.
    expect(attempt(limits, 'GET', 0)).to.equal('ok');
    // 10 DELETEs a second: one more after 100 ms.
    expect(attempt(limits, 'DELETE', 100)).to.equal('ok');
    expect(attempt(limits, 'DELETE', 100)).to.equal('429 after 1');
  });

  it('without a DELETE bucket, a DELETE is one request like any other', () => {
    const limits = new RateLimits();
    const settings = parseRateLimit('1/2');
    expect([1, 2, 3].map(() => attempt(limits, 'DELETE', 0, settings))).to.deep.equal(['ok', 'ok', '429 after 1']);
  });
});
