import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clauses, operations, packageRoot } from '../spec/index.js';
import { clausesOfCase, computeCoverage, groupCaseIds, renderCoverageMarkdown, renderCoverageText } from './coverage.js';
import { loadSuites, type CaseDef } from './suite.js';

const REGENERATE = 'npm run build && node dist/src/cli/main.js list --coverage --markdown > suites/COVERAGE.md';

const mk = (id: string, extra: Partial<CaseDef> = {}): CaseDef => ({
  id, title: `case ${id} title`, level: 'MUST', clauses: ['ENVELOPE.MESSAGE'], tags: [], tier: 'read-only', requires: [],
  steps: [{ name: 's', operation: 'listJobOffers' }], file: 'suites/x.yaml', line: 1, endpoints: [3], ...extra,
});

describe('coverage of the bundled suites', () => {
  const cases = loadSuites();
  const coverage = computeCoverage(cases);

  it('has a case for every MUST clause', () => {
    const bare = coverage.clauses.filter((c) => c.level === 'MUST' && c.cases.length === 0).map((c) => c.id);
    expect(bare, `MUST clauses without a case: ${bare.join(', ')}`).to.deep.equal([]);
  });

  it('has a case for every SHOULD clause', () => {
    const bare = coverage.clauses.filter((c) => c.level === 'SHOULD' && c.cases.length === 0).map((c) => c.id);
    expect(bare, `SHOULD clauses without a case: ${bare.join(', ')}`).to.deep.equal([]);
  });

  it('calls each of the 21 endpoints from some case', () => {
    const bare = coverage.endpoints.filter((e) => e.cases.length === 0).map((e) => `${e.endpoint} ${e.method} ${e.path}`);
    expect(bare, `endpoints without a case: ${bare.join('; ')}`).to.deep.equal([]);
    expect(coverage.summary.endpoints).to.deep.equal({ covered: 21, total: 21 });
  });

  it('names no unknown clause in any case, expectation or check', () => {
    expect(coverage.unknown.map((u) => `${u.caseId}: ${u.clause}`)).to.deep.equal([]);
  });

  it('keeps suites/COVERAGE.md in step with the suites', () => {
    const file = join(packageRoot, 'suites', 'COVERAGE.md');
    const wanted = renderCoverageMarkdown(coverage, cases);
    const stale = `suites/COVERAGE.md is stale; regenerate it with:\n    ${REGENERATE}`;
    expect(existsSync(file), `suites/COVERAGE.md is missing; generate it with:\n    ${REGENERATE}`).to.equal(true);
    // One assertion on a boolean, so a stale file prints how to fix it rather than a page of diff.
    expect(readFileSync(file, 'utf8') === wanted, stale).to.equal(true);
  });
});

describe('coverage computation', () => {
  it('counts the clauses a case names, its expectations judge and its checks judge by default', () => {
    const c = mk('x.one', {
      clauses: ['WRITE.READ_BACK'],
      steps: [{
        name: 's', operation: 'batchCreateApplicationSteps',
        expect: [{ clause: 'BATCH.ACCEPTS_ARRAY', outcome: 'success' }, { checks: ['created-ids', { id: 'record-matches', clause: 'WRITE.PATCH_PARTIAL' }] }],
      }],
    });
    expect(clausesOfCase(c)).to.deep.equal(['WRITE.READ_BACK', 'BATCH.ACCEPTS_ARRAY', 'RECORD.CREATED_IDS', 'WRITE.PATCH_PARTIAL']);
  });

  it('does not count the preconditions of setup steps and OBSERVE cases', () => {
    const setup = mk('x.setup', { clauses: ['WRITE.READ_BACK'], steps: [{ name: 's', setup: true, operation: 'batchCreateApplicationSteps', expect: { checks: ['created-ids'] } }] });
    const observe = mk('x.observe', { level: 'OBSERVE', clauses: ['PAGE_SIZE'], steps: [{ name: 's', operation: 'listJobOffers', expect: { checks: ['multi-page'] } }] });
    expect(clausesOfCase(setup)).to.deep.equal(['WRITE.READ_BACK']);
    expect(clausesOfCase(observe)).to.deep.equal(['PAGE_SIZE']);
  });

  it('counts PROFILE.DECLARED_MATCHES only for an observation under a declarable plain id', () => {
    const plain = mk('x.plain', { level: 'OBSERVE', clauses: ['PAGE_SIZE'], steps: [{ name: 's', operation: 'listJobOffers', observe: { PAGE_SIZE: '$pageSize' } }] });
    const keyed = mk('x.keyed', { level: 'OBSERVE', clauses: ['PAGE_SIZE'], steps: [{ name: 's', operation: 'listJobOffers', observe: { 'PAGE_SIZE.first': '$pageSize' } }] });
    const undeclarable = mk('x.none', { level: 'OBSERVE', clauses: ['TOKEN_IN_QUERY'], steps: [{ name: 's', operation: 'listJobOffers', observe: { TOKEN_IN_QUERY: '$status' } }] });
    expect(clausesOfCase(plain)).to.include('PROFILE.DECLARED_MATCHES');
    expect(clausesOfCase(keyed)).to.not.include('PROFILE.DECLARED_MATCHES');
    expect(clausesOfCase(undeclarable)).to.not.include('PROFILE.DECLARED_MATCHES');
  });

  it('reports clause ids that are neither clauses nor, for an OBSERVE case, open points', () => {
    const cov = computeCoverage([
      mk('x.bad-expect', { steps: [{ name: 's', operation: 'listJobOffers', expect: { clause: 'NOPE.NOTHING' } }] }),
      mk('x.open-point-in-must', { clauses: ['PAGE_SIZE'] }),
      mk('x.observe', { level: 'OBSERVE', clauses: ['PAGE_SIZE'] }),
    ]);
    expect(cov.unknown).to.deep.equal([
      { caseId: 'x.bad-expect', clause: 'NOPE.NOTHING' },
      { caseId: 'x.open-point-in-must', clause: 'PAGE_SIZE' },
    ]);
  });

  it('counts covered clauses by level, endpoints, and the endpoints of a clause no case reaches', () => {
    const cov = computeCoverage([
      mk('x.a', { clauses: ['FILTER.STATUS'], endpoints: [15] }),
      mk('x.b', { clauses: ['FILTER.REFERENCE'], endpoints: [3], level: 'MUST', tier: 'reversible' }),
    ]);
    expect(cov.summary.clauses.MUST.covered).to.equal(2);
    expect(cov.summary.clauses.MUST.total).to.equal(clauses().filter((c) => c.level === 'MUST').length);
    expect(cov.summary.endpoints).to.deep.equal({ covered: 2, total: operations().length });
    expect(cov.clauses.find((c) => c.id === 'FILTER.REFERENCE')?.gaps).to.deep.equal([15]);
    expect(cov.clauses.find((c) => c.id === 'FILTER.STATUS')?.gaps).to.deep.equal([]);
    expect(cov.byTier).to.deep.equal({ 'read-only': 1, reversible: 1, irreversible: 0 });
    expect(renderCoverageText(cov, [])).to.include('clauses covered: MUST 2/');
  });

  it('writes the copies an each made of one case once, and lists them one by one when only some are meant', () => {
    const all = [
      mk('auth.no-header.list', { line: 7 }), mk('auth.no-header.get', { line: 7 }), mk('auth.no-header.put', { line: 7 }),
      mk('token.issued', { line: 30 }),
    ];
    expect(groupCaseIds(['auth.no-header.list', 'auth.no-header.get', 'auth.no-header.put', 'token.issued'], all))
      .to.deep.equal(['auth.no-header.* (3)', 'token.issued']);
    expect(groupCaseIds(['auth.no-header.get'], all)).to.deep.equal(['auth.no-header.get']);
  });
});
