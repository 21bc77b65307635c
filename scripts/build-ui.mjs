// Builds the browser code of the dashboard and the HTML report (type-checked by tsconfig.ui.json, linted with the
// rest) into dist/, next to the modules that inline them: simulator/dashboard/page.ts and src/reporters/html-assets.ts
// read only these built files, so the packed package needs neither esbuild nor the sources. Run by `npm run build`,
// after tsc (the dashboard's columns are read from spec/ through the compiled spec model).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { listingColumns, schemaFiles } = await import(join(root, 'dist/src/spec/index.js'));

/** Per schema file (job-offer, …): the fields its listings show, from x-rdx-columns. */
const columns = Object.fromEntries(schemaFiles().map((file) => file.replace(/\.json$/, ''))
  .map((resource) => [resource, listingColumns(resource)]).filter(([, list]) => list.length > 0));

const bundles = [
  { entry: 'simulator/dashboard/ui/app.ts', out: 'dist/simulator/dashboard/ui/app.js', define: { RDX_COLUMNS: JSON.stringify(columns) } },
  { entry: 'src/reporters/ui/report.ts', out: 'dist/src/reporters/ui/report.js', define: {} },
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
for (const file of ['simulator/dashboard/ui/app.css', 'simulator/dashboard/ui/page.html', 'src/reporters/ui/report.css']) {
  mkdirSync(dirname(join(root, 'dist', file)), { recursive: true });
  copyFileSync(join(root, file), join(root, 'dist', file));
}
