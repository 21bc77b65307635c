import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, resourceInfo } from '../src/spec/index.js';
import { listingColumns } from './listing-columns.js';

describe('spec: listing columns (x-rdx-columns)', () => {
  const resources = ['job-offer', 'job-offer-attribute', 'application-step', 'jobboard-activity', 'jobboard-job-offer', 'user'];

  it('names fields of the resource, with what each holds read from the schema', () => {
    for (const resource of resources) {
      const columns = listingColumns(resource);
      expect(columns, resource).to.not.be.empty;
      for (const c of columns) expect(['text', 'number', 'reference'], `${resource}.${c.name}`).to.include(c.kind);
    }
    expect(listingColumns('job-offer').find((c) => c.name === 'reference')?.kind).to.equal('reference');
    expect(listingColumns('jobboard-activity').find((c) => c.name === 'count')?.kind).to.equal('number');
    expect(listingColumns('user').map((c) => c.name)).to.deep.equal(['mail', 'first_name', 'last_name', 'subsidiary', 'status']);
    // A column is a field of the resource, not a copy that could drift: the identity field leads the job offers.
    expect(listingColumns('job-offer')[0]?.name).to.equal(resourceInfo('job-offer').identity);
  });

  it('reach the dashboard bundle from spec/ at build time', () => {
    const bundle = readFileSync(join(packageRoot, 'dist/simulator/dashboard/ui/app.js'), 'utf8');
    for (const resource of resources) {
      for (const c of listingColumns(resource)) expect(bundle, `${resource}.${c.name}`).to.include(`name: "${c.name}", kind: "${c.kind}"`);
    }
  });
});
