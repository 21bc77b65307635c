import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../spec/index.js';
import { allChecks } from './index.js';
import { examplesByFile } from '../../test/check-examples/index.js';
import { CHECKS_MD, checksMarkdown, judge } from '../../test/check-examples/docs.js';

const CHECKS = join(packageRoot, 'src', 'checks');
/** The registry's own files: everything else at the top of src/checks/ defines checks. */
const INFRASTRUCTURE = new Set(['index.ts', 'registry.ts']);

describe('checks, each alone on its examples', () => {
  const checkFiles = readdirSync(CHECKS).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !INFRASTRUCTURE.has(f));

  it('registers every file of src/checks/ in src/checks/index.ts', () => {
    const index = readFileSync(join(CHECKS, 'index.ts'), 'utf8');
    const missing = checkFiles.filter((f) => !index.includes(`import './${f.replace(/\.ts$/, '.js')}';`));
    expect(missing, 'files of src/checks/ not imported by index.ts').to.deep.equal([]);
  });

  it('has an examples file for every check file, listed in examples/index.ts', () => {
    const files = checkFiles.map((f) => f.replace(/\.ts$/, ''));
    expect(Object.keys(examplesByFile).sort()).to.deep.equal(files.sort());
  });

  it('gives every registered check a pass and a fail example, and names no other check', () => {
    const ids = allChecks().map((c) => c.id);
    const examples = Object.values(examplesByFile).flatMap((byCheck) => Object.entries(byCheck));
    const named = examples.map(([id]) => id);
    expect(named.filter((id) => !ids.includes(id)), 'examples of unknown checks').to.deep.equal([]);
    const lacking = ids.filter((id) => {
      const list = examples.filter(([named]) => named === id).flatMap(([, list]) => list);
      return !list.some((e) => e.verdict === 'pass') || !list.some((e) => e.verdict === 'fail');
    });
    expect(lacking, 'checks without both a pass and a fail example').to.deep.equal([]);
  });

  for (const [file, byCheck] of Object.entries(examplesByFile)) {
    for (const [id, list] of Object.entries(byCheck)) {
      for (const example of list) {
        it(`${id} (${file}.ts) ${example.verdict === 'pass' ? 'passes' : 'fails'}: ${example.title}`, () => {
          const judged = judge(id, example);
          expect(judged, 'the check judged nothing (did not apply, or returned no judgement)').to.not.be.empty;
          const check = allChecks().find((c) => c.id === id);
          for (const j of judged) expect(check?.clauses, `${id} judged a clause it does not name`).to.include(j.clause);
          if (example.verdict === 'pass') {
            expect(judged.filter((j) => !j.passed).map((j) => j.message), 'failed judgements').to.deep.equal([]);
          } else {
            const failed = judged.filter((j) => !j.passed && !j.inconclusive);
            expect(failed, `a conclusive failure (judged: ${JSON.stringify(judged)})`).to.not.be.empty;
          }
        });
      }
    }
  }

  it('keeps docs/checks.md as generated (npm run docs:checks)', () => {
    expect(readFileSync(CHECKS_MD, 'utf8')).to.equal(checksMarkdown());
  });
});
