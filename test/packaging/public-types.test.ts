// The package's public types stop at the simulator's public face (issue 41 §5): the declarations a program compiles
// against, every file reachable from dist/src/index.d.ts, hold no simulator internal (the store and its tables, the
// pipeline, the request context, a persona's hooks), only simulator/public.d.ts and the plain option types it
// extends. Walked by the TypeScript compiler itself, as a consumer's tsc would walk them.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../../src/spec/index.js';
import type { Persona } from '../../src/index.js';

/** The simulator's declaration files a public type may reach: its public face and the option fields it extends. */
const PUBLIC_SIMULATOR_DECLARATIONS = ['dist/simulator/public.d.ts', 'dist/simulator/settings.d.ts'];

/** Every declaration file of ours that the types entry reaches (relative to the package root, sorted). */
function reachableDeclarations(entry = join(packageRoot, 'dist', 'src', 'index.d.ts')): string[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [], skipLibCheck: true,
  });
  return program.getSourceFiles()
    .map((f) => relative(packageRoot, f.fileName).split('\\').join('/'))
    .filter((f) => f.startsWith('dist/'))
    .sort();
}

describe('the public types (dist/src/index.d.ts and what it reaches)', function () {
  this.timeout(60_000);

  before(function () {
    if (!existsSync(join(packageRoot, 'dist', 'src', 'index.d.ts'))) throw new Error('no dist/src/index.d.ts: run npm run build first');
  });

  it('reach no simulator internal: of simulator/, only its public face and the option types it extends', () => {
    const reached = reachableDeclarations();
    // Measured when this test was written: 50 files reached, 14 of them the simulator's (store.d.ts and table.d.ts
    // among them, through Persona's hooks and the store a variant reads); with simulator/public.ts, 36 and 2.
    expect(reached.length, 'declaration files reached').to.be.above(10);
    expect(reached.filter((f) => f.startsWith('dist/simulator/'))).to.deep.equal(PUBLIC_SIMULATOR_DECLARATIONS);
    expect(reached.filter((f) => /\/(store|table|table-parts|context|server|seed|simulator-state)\.d\.ts$|\/personas\/types\.d\.ts$/.test(f)))
      .to.deep.equal([]);
  });

  it('give a program personas it can pass back but not write (a Persona comes from the simulator)', () => {
    // Compiled with the tests: were a Persona writable by hand again (no brand, or its hooks public), tsc would
    // report the unused directive and the build would fail.
    // @ts-expect-error a program cannot write a Persona: it gets one from allPersonas() or personaByName()
    const written: Persona = { name: 'mine', kind: 'fault', description: 'written by hand' };
    expect(written.name).to.equal('mine');
  });
});
