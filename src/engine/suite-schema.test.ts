import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SuiteError, loadSuites, type SuiteProblem } from './suite.js';

/** The problems of one suite file holding a case with these vars and this body. */
function problems(vars: string, body: string): SuiteProblem[] {
  const dir = mkdtempSync(join(tmpdir(), 'rdx-suite-'));
  const file = join(dir, 'x.yaml');
  writeFileSync(file, `format: 1
cases:
  - id: x.case
    title: A case made to test the suite schema
    level: MUST
    clauses: [BATCH.PARTIAL_SUCCESS]
    tier: reversible
    vars: ${vars}
    steps:
      - name: create
        operation: batchCreateJobOffers
        body: ${body}
        expect: { checks: [partial-success] }
`);
  try {
    loadSuites([file]);
    return [];
  } catch (error) {
    if (error instanceof SuiteError) return error.problems;
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('suite schema: vars and body', () => {
  it('accepts literals, templates and every generator with its options', () => {
    expect(problems(
      '{ offer: { $valid: job-offer, with: { title: "${run.tag}" } }, n: 2, when: { $date: -3, format: filter }, id: { $unique: x } }',
      '["${offer}", { $invalid: job-offer, omit: title }, { $valid: job-offer, count: "${n}" }, { nested: { list: [1, { $json: { a: 1 } }] } }]',
    )).to.deep.equal([]);
  });

  it('refuses an unknown generator, a generator option of another one, and an invalid item that is valid', () => {
    const unknown = problems('{ a: 1 }', '[{ $vaild: job-offer }]');
    expect(unknown.map((p) => p.field)).to.include('/cases/0/steps/0/body/0');
    expect(unknown.map((p) => p.message).join('\n')).to.include('$valid');
    expect(problems('{ a: 1 }', '[{ $unique: x, omit: title }]').map((p) => p.message).join('\n')).to.match(/unknown field omit/);
    expect(problems('{ a: 1 }', '[{ $invalid: job-offer }]').map((p) => p.field)).to.include('/cases/0/steps/0/body/0');
  });

  it('refuses a variable name that a template cannot reach, and a bad generator in vars', () => {
    expect(problems('{ "my offer": 1 }', '[]').map((p) => p.field).join(' ')).to.include('/cases/0/vars');
    expect(problems('{ d: { $date: -3, format: week } }', '[]').map((p) => `${p.field} ${p.message}`).join('\n')).to.match(/vars\/d\/format .*date, date-time, filter/);
  });
});
