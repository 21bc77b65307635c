// What the tarball holds, from `npm pack --dry-run --json`: the shipped code and what the docs send users to, none
// of the project's own tests and tools; and every module the shipped code imports is either shipped too, a node
// builtin, or a runtime dependency (a devDependency is missing from a production install: ERR_MODULE_NOT_FOUND).
import { expect } from 'chai';
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative, sep } from 'node:path';
import { packageRoot } from '../../src/spec/index.js';
import { packList, type PackList } from '../support/package.js';

const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  bin: Record<string, string>; main: string; types: string; exports: Record<string, unknown>;
  dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string>;
};

/** The module specifiers of compiled ESM: static imports and re-exports, side-effect imports, import() and require(). */
export function importedSpecifiers(source: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /^\s*(?:import|export)\s[^'"`;]*?\sfrom\s*(['"])([^'"\n]+)\1/gm,
    /^\s*import\s*(['"])([^'"\n]+)\1/gm,
    /\bimport\(\s*(['"])([^'"\n]+)\1\s*\)/g,
    /\brequire\(\s*(['"])([^'"\n]+)\1\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) if (m[2]) found.add(m[2]);
  return [...found];
}

/** "@scope/name/sub/path" -> "@scope/name"; "name/sub" -> "name". */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const isBuiltin = (specifier: string): boolean => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] ?? '');

describe('package contents (npm pack --dry-run)', function () {
  this.timeout(120_000);
  let pack: PackList;
  let paths: Set<string>;

  before(async () => {
    pack = await packList();
    paths = new Set(pack.files.map((f) => f.path));
  });

  it('holds no test files, test tooling (test/), build code (scripts/), benchmarks or source maps', () => {
    const unwanted = [...paths].filter((p) => /\.test\.|^(dist\/)?(test|scripts|bench)\/|(^|\/)(hostile|testing|fuzz)\/|test-support\.|\.map$|\.tsbuildinfo$/.test(p));
    expect(unwanted).to.deep.equal([]);
    // Only built code, data and docs: no TypeScript sources beside the declarations.
    expect([...paths].filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).to.deep.equal([]);
  });

  it('is all of dist/ but its source maps: nothing built there is left out of the package (tests build to build/)', () => {
    // A tool that takes dist/ for the shipped code (as a reviewer does) then judges exactly what users install: were
    // tests or test support compiled there again, their imports of devDependencies would read as the package's.
    const files = (readdirSync(join(packageRoot, 'dist'), { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((e) => e.isFile()).map((e) => posix.join(relative(packageRoot, e.parentPath).split(sep).join('/'), e.name));
    expect(files.length, 'files under dist/ (run npm run build first)').to.be.above(50);
    expect(files.filter((f) => !f.endsWith('.map') && !paths.has(f))).to.deep.equal([]);
  });

  it('holds none of the caches a run writes beside the code (seeded data, parsed registers)', () => {
    // They belong in the user's cache folder (src/spec/cache-dir.ts); were they ever written beside the code again,
    // a package packed from a checkout would ship whatever that checkout's tests last generated.
    expect([...paths].filter((p) => /(^|\/)\.(seed|yaml)-cache(\/|$)/.test(p))).to.deep.equal([]);
  });

  it('holds what the docs point users to and what the code reads at run time', () => {
    for (const wanted of ['README.md', 'package.json', 'src/config/rdx.config.schema.json', 'suites/suite.schema.json',
      'spec/openapi.yaml', 'spec/clauses.yaml', 'spec/interpretations.yaml', 'examples/github-actions.yml', 'examples/job-summary.mjs',
      // Built: the precompiled schema validators, and the yargs bundle with the licences of what it holds.
      'dist/src/spec/validators/token.cjs', 'dist/src/spec/validators/job-offer.cjs', 'dist/src/cli/yargs.js', 'dist/src/cli/yargs.LICENSES.txt']) {
      expect(paths, wanted).to.include(wanted);
    }
    const suites = [...paths].filter((p) => /^suites\/.+\.ya?ml$/.test(p));
    expect(suites.length, 'suite files').to.be.above(5);
    // The whole spec/ folder as it is in the repository (schemas included), since the engine reads it all.
    const specFiles = [...paths].filter((p) => p.startsWith('spec/schemas/'));
    expect(specFiles.length).to.be.above(3);
    for (const p of [manifest.main, manifest.types, ...Object.values(manifest.bin)]) expect(paths, p).to.include(p.replace(/^\.\//, ''));
  });

  it('has testcontainers (which --image loads) as a runtime dependency, and runs no script of its own on install', () => {
    // Shipped code imports it (dist/src/container/index.js): a production install must have it, whatever it omits.
    expect(manifest.dependencies).to.have.property('testcontainers');
    expect(manifest.devDependencies).to.not.have.property('testcontainers');
    // prepare runs on a local install and again on npm pack; prepack builds once, when packing, never on install.
    expect(Object.keys(manifest.scripts).filter((s) => /^(pre|post)?install$|^prepare$/.test(s))).to.deep.equal([]);
    expect(manifest.scripts['prepack']).to.equal('npm run build');
  });

  it('declares the programmatic entry point with its types', () => {
    expect(manifest.exports['.']).to.deep.equal({ types: `./${manifest.types}`, default: `./${manifest.main}` });
    expect(paths).to.include(manifest.types);
  });

  it('imports at run time only shipped files, node builtins and runtime dependencies', () => {
    const problems: string[] = [];
    const code = [...paths].filter((p) => /\.(m|c)?js$/.test(p));
    expect(code.length).to.be.above(50);
    for (const file of code) {
      const source = readFileSync(join(packageRoot, file), 'utf8');
      for (const specifier of importedSpecifiers(source)) {
        if (isBuiltin(specifier)) continue;
        if (specifier.startsWith('.')) {
          const target = posix.normalize(posix.join(posix.dirname(file), specifier));
          if (!paths.has(target)) problems.push(`${file} imports ${specifier}, which is not in the package`);
          continue;
        }
        const name = packageName(specifier);
        if (!(name in manifest.dependencies)) {
          problems.push(`${file} imports ${specifier}, but ${name} is ${name in manifest.devDependencies ? 'a devDependency' : 'not a dependency'}`);
        }
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('declares its types with nothing but shipped declarations and runtime dependencies that ship their own types', () => {
    // Walked from the types entry: a package reached here must resolve for a consumer with only production
    // dependencies installed (mocha ships no types: reaching it would need @types/mocha, a devDependency).
    const problems: string[] = [];
    const seen = new Set<string>();
    const queue = [manifest.types];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const specifier of importedSpecifiers(readFileSync(join(packageRoot, file), 'utf8'))) {
        if (isBuiltin(specifier)) continue;
        if (specifier.startsWith('.')) {
          const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.d.ts');
          if (paths.has(target)) queue.push(target);
          else problems.push(`${file} imports ${specifier}, whose declarations are not in the package`);
          continue;
        }
        const name = packageName(specifier);
        const own = JSON.parse(readFileSync(join(packageRoot, 'node_modules', name, 'package.json'), 'utf8')) as { types?: string; typings?: string };
        if (!(name in manifest.dependencies)) problems.push(`${file} imports the types of ${name}, which is not a runtime dependency`);
        else if (!own.types && !own.typings) problems.push(`${file} imports the types of ${name}, which ships none (a consumer would need @types/${name})`);
      }
    }
    expect(seen.size, 'declaration files reached').to.be.above(10);
    expect(problems).to.deep.equal([]);
  });
});

describe('the import scanner', () => {
  it('finds static, side-effect, dynamic and require imports, and names their packages', () => {
    const source = [
      "import Mocha from 'mocha';",
      "import { a, b } from './x.js';",
      "export { c } from '../y.js';",
      "import 'side-effect';",
      "const m = await import('testcontainers');",
      "const r = require('@scope/pkg/deep/file.js');",
      "const text = 'not an import from here';",
    ].join('\n');
    expect(importedSpecifiers(source).sort()).to.deep.equal(['../y.js', './x.js', '@scope/pkg/deep/file.js', 'mocha', 'side-effect', 'testcontainers']);
    expect(packageName('@scope/pkg/deep/file.js')).to.equal('@scope/pkg');
    expect(packageName('ajv/dist/2020.js')).to.equal('ajv');
    expect(isBuiltin('node:fs')).to.equal(true);
    expect(isBuiltin('fs/promises')).to.equal(true);
    expect(isBuiltin('mocha')).to.equal(false);
  });
});
