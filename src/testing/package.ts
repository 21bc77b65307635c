// The package as users get it: the file list `npm pack` would publish, and the packed tarball installed the way a
// vendor installs it (production dependencies only) into an empty project. Run after the build (npm test builds).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../spec/index.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** npm on a loaded machine, with the registry reached for what its cache lacks: generous. */
const NPM_LIMIT_MS = 300_000;

export interface PackFile {
  path: string;
  size: number;
}

export interface PackList {
  files: PackFile[];
  entryCount: number;
  /** Bytes of the .tgz. */
  size: number;
  unpackedSize: number;
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run(NPM, args, {
    cwd,
    timeout: NPM_LIMIT_MS,
    maxBuffer: 64 * 1024 * 1024,
    // --ignore-scripts: the caller has built already; `prepare` would rebuild.
    env: { ...process.env, npm_config_ignore_scripts: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
  return stdout;
}

function packJson(stdout: string): PackList {
  const list = JSON.parse(stdout) as (PackList & { filename: string })[];
  const first = list[0];
  if (!first) throw new Error(`npm pack --json printed no package: ${stdout.slice(0, 200)}`);
  return first;
}

let listed: Promise<PackList> | undefined;

/** What `npm pack` would put in the tarball (from the current dist/). */
export function packList(): Promise<PackList> {
  listed ??= npm(['pack', '--dry-run', '--json'], packageRoot).then(packJson);
  return listed;
}

export interface Installed {
  /** The consumer project: package.json, node_modules/rdx-conformance. */
  project: string;
  /** node_modules/.bin/rdx of the project, as `npx rdx` runs it. */
  bin: string;
  /** The installed package's folder. */
  packageDir: string;
  tarball: string;
  remove(): void;
}

/**
 * Packs the package and installs the tarball with --omit=dev into a fresh project (npm's cache first, the registry
 * for what it lacks), as `npm install --omit=dev ./rdx-conformance-x.y.z.tgz` in a vendor's project.
 */
export async function installPacked(): Promise<Installed> {
  const root = mkdtempSync(join(tmpdir(), 'rdx-packed-'));
  try {
    const packed = JSON.parse(await npm(['pack', '--json', '--pack-destination', root], packageRoot)) as { filename: string; name: string }[];
    const filename = packed[0]?.filename;
    if (!filename) throw new Error('npm pack printed no file name');
    const tarball = join(root, filename);
    const project = join(root, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'rdx-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    await npm(['install', '--omit=dev', '--prefer-offline', '--no-package-lock', tarball], project);
    const packageDir = join(project, 'node_modules', 'rdx-conformance');
    return { project, bin: join(project, 'node_modules', '.bin', 'rdx'), packageDir, tarball, remove: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}
