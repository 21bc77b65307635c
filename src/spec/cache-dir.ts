// Where rdx keeps what it can always make again (seeded data, parsed spec files): the user's cache directory, not the
// installed package, which may be read-only (a global install, the image) and is emptied by every build.
// RDX_CACHE_DIR names another folder, or turns caching off when it is "off" or empty.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The folder for one kind of cached data, or undefined when caching is off or no home folder is known. */
export function cacheDir(kind: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env['RDX_CACHE_DIR'];
  if (chosen !== undefined) return chosen === '' || chosen === 'off' ? undefined : join(chosen, kind);
  const base = env['XDG_CACHE_HOME']
    || (process.platform === 'win32' ? env['LOCALAPPDATA'] : undefined)
    || (homeOf() ? join(homeOf() as string, '.cache') : undefined);
  return base ? join(base, 'rdx-conformance', kind) : undefined;
}

function homeOf(): string | undefined {
  try {
    return homedir() || undefined;
  } catch {
    return undefined;
  }
}
