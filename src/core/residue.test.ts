import { expect } from 'chai';
import { residueLine, residueSummary } from './residue.js';
import type { ResidueEntry } from './results.js';

const entry = (resource: string, id?: number): ResidueEntry => ({
  resource, operationId: 'op', reference: 'r', caseId: 'c', createdAt: '2026-01-01T00:00:00Z', deleted: false, ...(id === undefined ? {} : { id }),
});

describe('the residue summary (src/core/residue.ts)', () => {
  it('counts what a run left per resource and says why: no DELETE in the spec, kept on a parent, or a DELETE that failed', () => {
    const s = residueSummary([entry('jobboard-activity', 1), entry('jobboard-activity', 2), entry('job-offer-attribute'), entry('jobboard-job-offer', 7)]);
    expect(s.records).to.equal(4);
    expect(s.byResource).to.deep.equal({ 'jobboard-activity': 2, 'job-offer-attribute': 1, 'jobboard-job-offer': 1 });
    expect(s.why).to.equal('the spec has no DELETE for jobboard-activity, so 2 jobboard-activity record(s) stay; '
      + '1 job-offer-attribute record(s) belong to records that stay and are left on them; '
      + '1 jobboard-job-offer record(s) were not deleted: the DELETE was refused or got no answer, or the run never learnt their id.');
    expect(residueLine(s)).to.match(/^Residue: 4 record\(s\) left on the target: the spec has no DELETE/);
    expect(residueSummary([]).why).to.equal('the run deleted everything it created.');
  });
});
