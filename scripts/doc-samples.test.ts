// The sample outputs the docs quote (console lines, counts) equal what fresh runs against the bundled simulator print
// (scripts/doc-samples.ts makes them), and no sample passes a secret as a flag.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/spec/index.js';
import { currentBlock } from './docs.js';
import { SAMPLES_REGENERATE, sampleBlocks } from './doc-samples.js';

describe('doc samples from real runs', function () {
  this.timeout(600_000);

  it('docs/personas.md, docs/verdicts.md and docs/reports.md quote what three fresh full runs print', async () => {
    for (const sample of await sampleBlocks()) {
      const text = readFileSync(join(packageRoot, sample.file), 'utf8');
      expect(currentBlock(text, sample.begin, sample.end), `${sample.file} is stale: run ${SAMPLES_REGENERATE}`).to.equal(sample.text);
    }
  });

  it('no command in the docs passes --client-secret with a value (the README advises the environment)', () => {
    const files = ['README.md', ...readdirSync(join(packageRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
    for (const file of files) {
      const blocks = [...readFileSync(join(packageRoot, file), 'utf8').matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
      for (const block of blocks) expect(block, file).to.not.match(/--client-secret[ =]\S/);
    }
  });
});
