// The layer rule (.dependency-cruiser.cjs) proved on imports it must refuse: probe files planted in a temporary copy
// of the sources (never in the checkout), cruised with the command `npm run lint:layers` runs. The rule must report
// each probe's import, and nothing else: the rest of the copy is the clean tree, which passes.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../src/spec/index.js';
import { uncounted } from './support/package.js';

const run = promisify(execFile);
const DEPCRUISE = join(packageRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** Each probe: files of ours that break the rule, and the violations (rule: from -> to) it must report for them. */
const PROBES: { why: string; files: Record<string, string>; refused: string[] }[] = [
  {
    why: 'a new folder (in no layer) importing the engine and the reporters',
    files: { 'src/util/probe.ts': "export * from '../engine/plan.js';\nexport * from '../reporters/console.js';\n" },
    refused: ['not-in-allowed: src/util/probe.ts -> src/engine/plan.ts', 'not-in-allowed: src/util/probe.ts -> src/reporters/console.ts'],
  },
  {
    why: 'the engine importing a reporter',
    files: { 'src/engine/probe.ts': "export * from '../reporters/console.js';\n" },
    refused: ['not-in-allowed: src/engine/probe.ts -> src/reporters/console.ts'],
  },
  {
    why: 'simulator code importing test tooling',
    files: { 'simulator/probe-tooling.ts': "export * from '../test/support/loopback.js';\n" },
    refused: ['not-in-allowed: simulator/probe-tooling.ts -> test/support/loopback.ts'],
  },
  {
    why: 'simulator code importing the harness',
    files: { 'simulator/probe-harness.ts': "export * from '../src/engine/plan.js';\n" },
    refused: ['not-in-allowed: simulator/probe-harness.ts -> src/engine/plan.ts'],
  },
  {
    why: 'the harness or the simulator importing the wiring (src/compose.ts is for the entry points)',
    files: {
      'src/engine/probe-compose.ts': "export * from '../compose.js';\n",
      'simulator/probe-compose.ts': "export * from '../src/compose.js';\n",
    },
    refused: [
      'not-in-allowed: src/engine/probe-compose.ts -> src/compose.ts',
      'not-in-allowed: simulator/probe-compose.ts -> src/compose.ts',
    ],
  },
  {
    why: 'product code importing build-only code or a docs generator',
    files: {
      'src/core/probe-build.ts': "export * from '../../scripts/listing-columns.js';\n",
      'src/cli/probe-docs.ts': "export * from '../../scripts/docs.js';\n",
    },
    refused: [
      'not-in-allowed: src/core/probe-build.ts -> scripts/listing-columns.ts',
      'not-in-allowed: src/cli/probe-docs.ts -> scripts/docs.ts',
    ],
  },
  {
    why: 'a package outside the one layer that may import it (undici, yargs, testcontainers)',
    files: {
      'src/engine/probe-undici.ts': "export { request } from 'undici';\n",
      'src/container/probe-yargs.ts': "import type { Argv } from 'yargs';\nexport type A = Argv;\n",
      'src/reporters/probe-testcontainers.ts': "export { GenericContainer } from 'testcontainers';\n",
    },
    refused: [
      'undici-only-in-src/http: src/engine/probe-undici.ts -> node_modules/undici/index.js',
      'yargs-only-in-src/cli: src/container/probe-yargs.ts -> node_modules/yargs/index.mjs',
      'testcontainers-only-in-src/container: src/reporters/probe-testcontainers.ts -> node_modules/testcontainers/build/index.js',
    ],
  },
  {
    why: 'two modules of one layer importing each other (a circle, reported once)',
    files: {
      'src/http/probe-a.ts': "export * from './probe-b.js';\nexport const a = 1;\n",
      'src/http/probe-b.ts': "export * from './probe-a.js';\nexport const b = 2;\n",
    },
    refused: ['no-circular: src/http/probe-a.ts -> src/http/probe-b.ts'],
  },
];

interface Cruise {
  summary: { violations: { from: string; to: string; rule: { name: string; severity: string } }[] };
}

describe('the layer rule (.dependency-cruiser.cjs)', function () {
  this.timeout(300_000);
  let copy: string;

  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'rdx-layers-'));
    for (const entry of ['src', 'simulator', 'test', 'scripts', 'bench', '.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) {
      cpSync(join(packageRoot, entry), join(copy, entry), { recursive: true });
    }
    symlinkSync(join(packageRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  });

  after(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('refuses each probe (no layer, pointing up, simulator to test tooling or harness, harness or simulator to the wiring, product to build code or a docs generator, a package outside its layer, a circle) and nothing else of the tree', async () => {
    for (const [file, source] of PROBES.flatMap((p) => Object.entries(p.files))) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      writeFileSync(join(copy, file), source);
    }
    // The folders and the config exactly as `npm run lint:layers` passes them, with JSON output to read (with which
    // depcruise exits 0 whatever it found: the violations of severity error are what fail `npm run lint:layers`).
    const script = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['lint:layers'] ?? '';
    const args = script.replace(/^depcruise\s+/, '').replace(/--output-type\s+\S+/, '--output-type json').split(/\s+/);
    expect(args, script).to.include('--config');
    // dependency-cruiser's coverage is nothing c8 counts (uncounted()).
    const { stdout } = await run(process.execPath, [DEPCRUISE, ...args], { cwd: copy, maxBuffer: 256 * 1024 * 1024, env: uncounted(process.env) });
    const cruise = JSON.parse(stdout) as Cruise;
    expect(cruise.summary.violations.filter((v) => v.rule.severity !== 'error'), 'every violation is an error').to.deep.equal([]);
    // A package resolves through the copy's node_modules link, to where the link points: named from node_modules/ on.
    const found = cruise.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*?(?=node_modules\/)/, '')}`).sort();
    expect(found).to.deep.equal(PROBES.flatMap((p) => p.refused).sort());
  });
});
