// The browser code of the dashboard and the report is bundled at build time (scripts/bundle.mjs) into files next to
// the module that inlines it; shipped code reads only those built files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A built file, relative to the module whose import.meta.url is `base`. */
export function builtAsset(relative: string, base: string): string {
  const url = new URL(relative, base);
  try {
    return readFileSync(url, 'utf8');
  } catch {
    throw new Error(`rdx: ${fileURLToPath(url)} is missing: build with npm run build (tsc alone does not bundle the browser code)`);
  }
}
