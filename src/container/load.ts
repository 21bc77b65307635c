// testcontainers is a dependency, but only `rdx run --image` needs it (with ssh2 and cpu-features, it is most of an
// install): its module is loaded here, on --image only, so that no other command pays for loading it; where an
// install lacks it all the same (removed, or a partial copy), --image says what to install.
import { UsageError } from '../errors.js';

/** What to run when --image is given and testcontainers is not installed. */
export const INSTALL_TESTCONTAINERS = 'install testcontainers to use --image: npm i testcontainers (npm i -g testcontainers where rdx is installed globally)';

/** Whether an import failed because the package `name` is not installed (not because it failed to load). */
export function missingPackage(error: unknown, name: string): boolean {
  const e = error as NodeJS.ErrnoException | undefined;
  return e?.code === 'ERR_MODULE_NOT_FOUND' && typeof e.message === 'string' && e.message.includes(`'${name}'`);
}

/** The container module (src/container/index.ts), which imports testcontainers; a UsageError when it is not installed. */
export async function loadContainer(importer: () => Promise<typeof import('./index.js')> = () => import('./index.js')): Promise<typeof import('./index.js')> {
  try {
    return await importer();
  } catch (error) {
    if (missingPackage(error, 'testcontainers')) throw new UsageError(INSTALL_TESTCONTAINERS, 'RDX_ERR_MISSING_PACKAGE');
    throw error;
  }
}
