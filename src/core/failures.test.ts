import { expect } from 'chai';
import { causedStep, causeIndex, failureGroups, pathTemplate, stepLabel, type FailedCase } from './failures.js';
import type { Assertion, CaseResult, Exchange } from './results.js';

const exchange = (method: string, url: string): Exchange => ({
  step: 'x', request: { method, url, headers: {} }, response: { status: 200, headers: {}, body: '' }, startedAt: '2026-01-01T00:00:00Z', elapsedMs: 1,
});

const result = (id: string, level: CaseResult['level'], verdict: CaseResult['verdict'], assertions: Assertion[], exchanges: Exchange[] = []): CaseResult => ({
  id, title: id, level, clauses: [], endpoints: [], tags: [], tier: 'reversible', file: 'f.yaml', verdict, assertions, observations: [], exchanges, durationMs: 1,
});

const missing = (exchange: number, message = 'status 404: message is missing'): Assertion => ({ clause: 'ENVELOPE.MESSAGE', level: 'MUST', passed: false, message, exchange, check: 'message-string' });

describe('failures grouped by clause and finding (src/core/failures.ts)', () => {
  it('names a step by its number, method and the spec\'s path, under any base path', () => {
    expect(pathTemplate('DELETE', 'https://h.example/api/v2/jobboard/job-offers/rdx-9')).to.equal('/jobboard/job-offers/{id}');
    expect(pathTemplate('POST', 'http://127.0.0.1:1/ats/job-offers/batch')).to.equal('/ats/job-offers/batch');
    expect(pathTemplate('GET', 'http://127.0.0.1:1/not/a/spec/path')).to.equal('/not/a/spec/path');
    expect(stepLabel([exchange('GET', 'http://x/ats/job-offers'), exchange('GET', 'http://x/ats/job-offers'), exchange('delete', 'http://x/jobboard/job-offers/7')], 2))
      .to.equal('step 3 DELETE /jobboard/job-offers/{id}');
    expect(stepLabel([], undefined)).to.equal(undefined);
  });

  it('gives a group the level of the clause that broke, not the case\'s, and the failing step', () => {
    // A SHOULD case whose clean-up DELETE (its third request) broke a MUST clause.
    const should = result('a.should-case', 'SHOULD', 'fail', [
      { clause: 'HTTP.CACHE', level: 'SHOULD', passed: true, message: 'ok', exchange: 0, check: 'c' },
      { clause: 'ENVELOPE.JSON_BODY', level: 'MUST', passed: false, message: 'the body is not JSON', exchange: 2, check: 'json-body' },
    ], [exchange('POST', 'http://x/jobboard/job-offers'), exchange('GET', 'http://x/ats/job-offers'), exchange('DELETE', 'http://x/jobboard/job-offers/5')]);
    const [group] = failureGroups([should]);
    expect(group).to.deep.include({ clause: 'ENVELOPE.JSON_BODY', level: 'MUST', finding: 'the body is not JSON', findings: 1 });
    expect(group?.cases).to.deep.equal([{ id: 'a.should-case', step: 'step 3 DELETE /jobboard/job-offers/{id}' }]);
  });

  it('makes one group of many cases with one cause, MUST first, the commonest finding shown, and leaves passes and baseline entries out', () => {
    const cases = [
      ...[1, 2, 3].map((n) => result(`c${n}`, 'MUST', 'fail', [missing(0)], [exchange('GET', `http://x/ats/job-offers/${n}`)])),
      result('c4', 'MUST', 'fail', [missing(0, 'status 400: message is missing')], [exchange('GET', 'http://x/ats/job-offers/4')]),
      result('w1', 'SHOULD', 'warn', [{ clause: 'HTTP.CACHE', level: 'SHOULD', passed: false, message: 'no cache-control', check: 'cache' }]),
      result('e1', 'MUST', 'error', [], [exchange('GET', 'http://x/ats/job-offers')]),
      result('p1', 'MUST', 'pass', [{ ...missing(0), passed: true }]),
      { ...result('k1', 'MUST', 'fail', [missing(0)]), baseline: { reason: 'known' } },
    ];
    cases[5] = { ...cases[5] as CaseResult, reason: 'connection-refused: no answer' };
    const groups = failureGroups(cases);
    expect(groups.map((g) => [g.level, g.clause, g.cases.length])).to.deep.equal([['ERROR', '-', 1], ['MUST', 'ENVELOPE.MESSAGE', 4], ['SHOULD', 'HTTP.CACHE', 1]]);
    expect(groups[1]).to.deep.include({ finding: 'status 404: message is missing', findings: 2 });
    expect(groups[1]?.cases.map((c) => c.id)).to.deep.equal(['c1', 'c2', 'c3', 'c4']);
    expect(groups[0]).to.deep.include({ finding: 'connection-refused: no answer' });
    expect(groups[0]?.cases).to.deep.equal([{ id: 'e1', step: 'step 1 GET /ats/job-offers' }]);
  });
});

describe('read-back failures grouped by the write that caused them (src/core/failures.ts)', () => {
  const patchThenRead = (id: string, clause: string, resource: string): CaseResult => result(id, 'MUST', 'fail', [
    { clause, level: 'MUST', passed: false, message: `${id}: subsidiary: sent "x", read back nothing`, exchange: 3, check: 'record-matches' },
  ], [exchange('POST', 'http://x/oauth2/token'), exchange('POST', `http://x/${resource}`), exchange('PATCH', `http://x/${resource}/7`), exchange('GET', `http://x/${resource}/7`)]);

  it('makes one group of WRITE.PATCH_PARTIAL twice and WRITE.READ_BACK once that a PATCH caused, naming the PATCH before the read', () => {
    const groups = failureGroups([
      patchThenRead('a', 'WRITE.PATCH_PARTIAL', 'ats/job-offers'),
      patchThenRead('b', 'WRITE.PATCH_PARTIAL', 'ats/application-steps'),
      patchThenRead('c', 'WRITE.READ_BACK', 'jobboard/job-offers'),
      result('d', 'MUST', 'fail', [missing(0)], [exchange('GET', 'http://x/ats/job-offers/4')]),
    ]);
    expect(groups.map((g) => [g.clause, g.cause?.method, g.cases.length])).to.deep.equal([['WRITE.PATCH_PARTIAL', 'PATCH', 3], ['ENVELOPE.MESSAGE', undefined, 1]]);
    expect(groups[0]?.cause?.clauses).to.deep.equal(['WRITE.PATCH_PARTIAL', 'WRITE.READ_BACK']);
    expect(groups[0]?.cases[0]).to.deep.equal({ id: 'a', step: 'step 4 GET /ats/job-offers/{id}', cause: 'step 3 PATCH /ats/job-offers/{id}' });
    expect(causedStep(groups[0]?.cases[0] as FailedCase)).to.equal('step 3 PATCH /ats/job-offers/{id} → step 4 GET /ats/job-offers/{id}');
  });

  it('takes the last write at or before the read, never a token request, and leaves a read-back failure with no write by its clause', () => {
    const list = [exchange('POST', 'http://x/oauth2/token'), exchange('PUT', 'http://x/ats/job-offers/1'), exchange('GET', 'http://x/ats/job-offers/1'), exchange('PATCH', 'http://x/ats/job-offers/1')];
    expect(causeIndex(list, 2)).to.equal(1);
    expect(causeIndex(list, 3)).to.equal(3);
    expect(causeIndex(list, 0)).to.equal(undefined);
    expect(causeIndex(list, undefined)).to.equal(undefined);
    const [readOnly] = failureGroups([result('r', 'MUST', 'fail', [
      { clause: 'WRITE.READ_BACK', level: 'MUST', passed: false, message: 'differs', exchange: 0, check: 'record-matches' },
    ], [exchange('GET', 'http://x/ats/job-offers/1')])]);
    expect(readOnly).to.deep.include({ clause: 'WRITE.READ_BACK', check: 'record-matches' });
    expect(readOnly?.cause).to.equal(undefined);
  });
});
