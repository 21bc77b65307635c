// scripts/coverage-gates.mjs judged on made-up c8 summaries: each gate fails when it should, and only then.
import { expect } from 'chai';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/spec/index.js';

interface Measure { covered: number; total: number }
type FileSummary = Record<'lines' | 'statements' | 'branches' | 'functions', Measure>;
interface Gates {
  GLOBAL: Record<string, number>;
  FLOOR: Record<string, number>;
  SERVICES: { name: string; env: string; files: string[] }[];
  typeOnly(source: string): boolean;
  judge(summary: Record<string, FileSummary>, env: Record<string, string | undefined>, base?: string): { lines: string[]; failures: string[] };
}

const gates = (): Promise<Gates> => import(pathToFileURL(join(packageRoot, 'scripts', 'coverage-gates.mjs')).href) as Promise<Gates>;

/** A file summary with every measure at `percent` of 1000. */
const at = (percent: number): FileSummary => {
  const m = { covered: percent * 10, total: 1000 };
  return { lines: m, statements: m, branches: m, functions: m };
};

const BASE = '/repo';
function summary(files: Record<string, FileSummary>): Record<string, FileSummary> {
  return Object.fromEntries(Object.entries(files).map(([name, s]) => [`${BASE}/${name}`, s]));
}

describe('coverage gates (scripts/coverage-gates.mjs)', () => {
  it('pass a product that meets the global thresholds and the per-file floor, with the Docker-only file not gated off CI', async () => {
    const { judge, SERVICES } = await gates();
    const docker = SERVICES[0]?.files[0] as string;
    const r = judge(summary({ 'src/a.ts': at(99), 'src/b.ts': at(98), [docker]: at(0) }), {}, BASE);
    expect(r.failures).to.deep.equal([]);
    expect(r.lines.join('\n')).to.include('global, 2 product files').and.include('not gated here');
  });

  it('fail the global gate on coverage lost across the product, and name the measure', async () => {
    const { judge, GLOBAL } = await gates();
    const r = judge(summary({ 'src/a.ts': at(90), 'src/b.ts': at(90), 'src/container/index.ts': at(100) }), {}, BASE);
    expect(r.failures).to.include(`global: lines 90.00% < ${GLOBAL['lines']}%`);
  });

  it('fail one untested file that a good average would hide', async () => {
    const { judge, FLOOR } = await gates();
    const files: Record<string, FileSummary> = { 'src/container/index.ts': at(100), 'src/new.ts': { ...at(100), lines: { covered: 10, total: 100 } } };
    for (let i = 0; i < 50; i++) files[`src/m${i}.ts`] = at(100);
    const r = judge(summary(files), {}, BASE);
    expect(r.failures).to.deep.equal([`src/new.ts: lines 10.00% < ${FLOOR['lines']}% (the per-file floor)`]);
  });

  it('gate the Docker-only file where the engine is required to run (CI), and tell when it left the source', async () => {
    const { judge, SERVICES } = await gates();
    const docker = SERVICES[0] as { name: string; env: string; files: string[] };
    const r = judge(summary({ 'src/a.ts': at(99), [docker.files[0] as string]: at(10) }), { [docker.env]: '1' }, BASE);
    expect(r.failures).to.have.length(4).and.satisfy((all: string[]) => all.every((f) => f.startsWith(`${docker.name}: `)));
    expect(r.failures[0]).to.match(/^Docker engine: lines 10\.00% < \d+%$/);
    expect(judge(summary({ 'src/a.ts': at(99), [docker.files[0] as string]: at(100) }), { [docker.env]: '1' }, BASE).failures).to.deep.equal([]);
    const gone = judge(summary({ 'src/a.ts': at(99) }), {}, BASE);
    expect(gone.failures).to.deep.equal([`${docker.name}: ${docker.files[0]} not in the coverage source (renamed? update scripts/coverage-gates.mjs)`]);
  });

  it('leave out a file that compiled to no code (types only), and only such a file', async () => {
    const { typeOnly } = await gates();
    expect(['simulator/context.ts', 'src/data/types.ts', 'simulator/state.ts', 'src/index.ts'].map((f) => typeOnly(f))).to.deep.equal([true, true, false, false]);
  });
});
