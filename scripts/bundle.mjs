// The bundles of `npm run build`, made after tsc (the dashboard's columns are read from spec/ through the compiled
// spec model), so the packed package needs neither esbuild nor the sources:
// - the browser code of the dashboard and the HTML report (type-checked by tsconfig.ui.json, linted with the rest),
//   next to the modules that inline them: simulator/dashboard/page.ts and src/reporters/html-assets.ts read only
//   these built files;
// - yargs and its dependencies as one module, in place of tsc's output for src/cli/yargs.ts (start-up: see there);
// - every definition of spec/schemas compiled by ajv ahead of time (build/src/spec/validators/<schema file>.cjs; see validator()).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const spec = await import(join(root, 'build/src/spec/index.js'));
const { schemaFiles } = spec;
const { listingColumns } = await import(join(root, 'build/scripts/listing-columns.js'));

/** Per schema file (job-offer, …): the fields its listings show, from x-rdx-columns. */
const columns = Object.fromEntries(schemaFiles().map((file) => file.replace(/\.json$/, ''))
  .map((resource) => [resource, listingColumns(resource)]).filter(([, list]) => list.length > 0));

const bundles = [
  { entry: 'simulator/dashboard/ui/app.ts', out: 'build/simulator/dashboard/ui/app.js', define: { RDX_COLUMNS: JSON.stringify(columns) } },
  { entry: 'src/reporters/ui/report.ts', out: 'build/src/reporters/ui/report.js', define: {} },
];
for (const b of bundles) {
  await build({
    entryPoints: [join(root, b.entry)],
    outfile: join(root, b.out),
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    charset: 'utf8',
    legalComments: 'none',
    define: b.define,
    logLevel: 'warning',
  });
}
{
  const out = join(root, 'build/src/cli/yargs.js');
  const result = await build({
    entryPoints: [join(root, 'src/cli/yargs.ts')],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // yargs' CommonJS parts call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as rdxCreateRequire } from 'node:module'; const require = rdxCreateRequire(import.meta.url);" },
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
  });
  // The bundle is a copy of each package in it: their licences ship beside it, as their terms ask.
  const packages = new Map();
  for (const input of Object.keys(result.metafile.inputs)) {
    const at = input.lastIndexOf('node_modules/');
    if (at === -1) continue;
    const rest = input.slice(at + 'node_modules/'.length).split('/');
    const dir = input.slice(0, at) + 'node_modules/' + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join('/');
    packages.set(dir, true);
  }
  const notices = [...packages.keys()].sort().map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((f) => /^licen[cs]e/i.test(f));
    if (!file) throw new Error(`scripts/bundle.mjs: ${dir} has no licence file to ship with the yargs bundle`);
    return `${manifest.name}@${manifest.version} (${manifest.license})\n\n${readFileSync(join(root, dir, file), 'utf8').trim()}\n`;
  });
  writeFileSync(join(root, 'build/src/cli/yargs.LICENSES.txt'),
    `Packages bundled into yargs.js by scripts/bundle.mjs, with their licences.\n\n${notices.join('\n' + '-'.repeat(78) + '\n\n')}`);
  // The string-width copies inside make an Intl.Segmenter each as they load, 20 ms apiece for ICU's break data, though
  // only help text ever measures a string: each is made on its first use instead.
  const text = readFileSync(out, 'utf8');
  const segmenters = text.match(/new Intl\.Segmenter\(\)/g)?.length ?? 0;
  if (segmenters === 0) throw new Error('scripts/bundle.mjs: no Intl.Segmenter in the yargs bundle any more; drop the lazy one');
  // One lazy stand-in for both: the object is made on the first call of the one method string-width calls on it.
  const lazy = 'const rdxLazy = (make, method) => { let made; return { [method]: (text) => (made ??= make())[method](text) }; };\n';
  // Its emoji pattern (\p{RGI_Emoji} under flag v) took 24 ms to construct as the bundle loaded, a tenth of `rdx
  // simulate`'s start-up: it is made on its first test instead (the only use string-width makes of it).
  const emoji = /(var (\w+) = )new RegExp\(("\^\\\\p\{RGI_Emoji\}\$", "v")\);/;
  const [, , name] = emoji.exec(text) ?? [];
  if (!name) throw new Error('scripts/bundle.mjs: no RGI_Emoji pattern in the yargs bundle any more; drop the lazy one');
  const uses = text.match(new RegExp(`\\b${name}\\b(?!\\.test\\()`, 'g'))?.length ?? 0;
  if (uses !== 1) throw new Error(`scripts/bundle.mjs: the yargs bundle uses ${name} other than by .test(); the lazy pattern offers test() only`);
  writeFileSync(out, lazy + text.replace(/new Intl\.Segmenter\(\)/g, "rdxLazy(() => new Intl.Segmenter(), 'segment')")
    .replace(emoji, "$1rdxLazy(() => new RegExp($3), 'test');"));
}
{
  const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone').default;
  const ajv = spec.newSchemaRegistry({ source: true });
  const uris = spec.schemaDefinitionUris();
  const hash = JSON.stringify(spec.schemasHash());
  // One module per schema file, its definitions (and what they reference) only: the first answer loads what it needs.
  mkdirSync(join(root, 'build/src/spec', spec.PRECOMPILED_VALIDATORS), { recursive: true });
  for (const file of schemaFiles()) {
    const own = uris.filter((uri) => uri.slice(spec.SCHEMA_BASE.length).split('#')[0] === file);
    const code = standaloneCode(ajv, Object.fromEntries(own.map((uri) => [uri, uri])));
    writeFileSync(join(root, 'build/src/spec', spec.precompiledModule(file)), `${code}\nexports.schemasHash = ${hash};\n`);
  }
}
for (const file of ['simulator/dashboard/ui/app.css', 'simulator/dashboard/ui/page.html', 'src/reporters/ui/report.css']) {
  mkdirSync(dirname(join(root, 'build', file)), { recursive: true });
  copyFileSync(join(root, file), join(root, 'build', file));
}

// The suites that ship, parsed and checked once here rather than on every run (src/engine/suite.ts, PARSED_CACHE).
{
  const { parsedSuites } = await import(join(root, 'build/src/engine/suite.js'));
  writeFileSync(join(root, 'build/src/engine/suites.parsed.json'), JSON.stringify(parsedSuites()));
}
