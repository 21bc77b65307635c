import { expect } from 'chai';
import { mergeTransport, transportSummary } from './transport.js';
import type { TransportStats } from '../http/throttle.js';

describe('the throttling line and the merged transport figures', () => {
  it('names the endpoints throttled, most first, and the time waited', () => {
    const line = transportSummary({ throttled: { 3: 2, 2: 5 }, waitedMs: 7000, pacedMs: 1234, gaveUp: 1, rateLimit: 28.5 });
    expect(line).to.equal('Throttling: 7 answer(s) throttled (429, or 503 with Retry-After) and sent again: POST /ats/job-offers 5, GET /ats/job-offers 2; ' +
      'waited 7 s after them; 1.2 s held to the client-side pace (ending at 28.5 requests/s); 1 request(s) given up (no answer)');
    expect(transportSummary({ throttled: {}, waitedMs: 0, pacedMs: 0, gaveUp: 0 })).to.equal(undefined);
    expect(transportSummary(undefined)).to.equal(undefined);
  });

  it('adds up shards, and reads nothing but numbers from a crafted report', () => {
    const crafted = JSON.parse('{"throttled":{"__proto__":5,"3":"x","2":1,"<b>":4},"waitedMs":"9","pacedMs":1,"gaveUp":null}') as TransportStats;
    const merged = mergeTransport([{ throttled: { 2: 2 }, waitedMs: 1000, pacedMs: 0, gaveUp: 0 }, crafted, undefined, null as unknown as TransportStats]);
    expect(merged).to.deep.equal({ throttled: { 2: 3 }, waitedMs: 1000, pacedMs: 1, gaveUp: 0 });
    expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
    expect(transportSummary({ throttled: null, waitedMs: 'x' } as unknown as TransportStats)).to.equal(undefined);
    expect(mergeTransport([undefined])).to.equal(undefined);
  });
});
