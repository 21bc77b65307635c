// The harness version, read once from the package's own package.json (the single place it is written): the first
// one above this module that names this package, never the package.json of the project that runs it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'rdx-conformance';

function ownVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error(`rdx: no package.json of ${PACKAGE_NAME} above ${fileURLToPath(import.meta.url)}`);
  }
}

export const harnessVersion: string = ownVersion();
