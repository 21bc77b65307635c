import { expect } from 'chai';
import type { CaseResult, Exchange } from '../core/results.js';
import { endpointOf, latencyOf, percentile } from './latency.js';

const exchange = (method: string, url: string, elapsedMs: number, answered = true): Exchange => ({
  step: 's', request: { method, url, headers: {} }, startedAt: '2026-01-01T00:00:00Z', elapsedMs,
  ...(answered ? { response: { status: 200, headers: {}, body: '{}' } } : { transportError: { kind: 'timeout', message: 'late' } }),
});
const caseWith = (exchanges: Exchange[]): CaseResult => ({
  id: 'c', title: 't', level: 'MUST', clauses: [], endpoints: [], tags: [], tier: 'read-only', file: 'f', verdict: 'pass',
  assertions: [], observations: [], exchanges, durationMs: 0,
});

describe('latency of the target', () => {
  it('names the endpoint of a request below a base path, literal paths before templates, the token URL anywhere', () => {
    const base = 'http://127.0.0.1:8080/api/v1';
    expect(endpointOf('GET', `${base}/ats/job-offers?reference=a`, base)).to.equal(3);
    expect(endpointOf('GET', `${base}/ats/job-offers/17`, base)).to.equal(4);
    expect(endpointOf('DELETE', `${base}/ats/job-offers/17/attributes/colour`, base)).to.equal(9);
    expect(endpointOf('PUT', `${base}/users`, base)).to.equal(21);
    expect(endpointOf('GET', `${base}/users`, base)).to.equal(undefined);
    expect(endpointOf('POST', 'https://login.example/oauth/token', base, 'https://login.example/oauth/token')).to.equal(1);
    expect(endpointOf('POST', `${base}/oauth2/token`, base)).to.equal(1);
  });

  it('takes nearest-rank percentiles: values that were measured', () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).to.equal(10);
    expect(percentile(sorted, 95)).to.equal(19);
    expect(percentile([7], 95)).to.equal(7);
    expect(percentile([], 50)).to.equal(0);
  });

  it('counts answers per endpoint and leaves out requests that got none', () => {
    const base = 'http://127.0.0.1:1';
    const latency = latencyOf([
      caseWith([exchange('GET', `${base}/ats/job-offers/1`, 30), exchange('GET', `${base}/ats/job-offers/2`, 10), exchange('GET', `${base}/ats/job-offers/3`, 20)]),
      caseWith([exchange('GET', `${base}/ats/job-offers/4`, 9000, false), exchange('PUT', `${base}/users`, 5), exchange('GET', `${base}/nowhere`, 1)]),
    ], base);
    expect(latency).to.deep.equal({
      4: { count: 3, p50Ms: 20, p95Ms: 30, maxMs: 30 },
      21: { count: 1, p50Ms: 5, p95Ms: 5, maxMs: 5 },
    });
  });
});
