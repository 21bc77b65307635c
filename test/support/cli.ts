// The rdx command line as a child process: what a CI gate runs, judged by its exit code, its output and its files.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Node flags before the script (--max-old-space-size=…). */
  node?: string[];
  /** Killed with SIGKILL after this long: only against a hang, never a speed goal. */
  hangGuardMs?: number;
  /** Runs a script other than the CLI (a probe of the exit path). */
  script?: string;
}

/** Runs `rdx …args` (or another script) to its end. */
export function rdxProcess(args: string[], options: SpawnOptions = {}): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(options.node ?? []), options.script ?? CLI, ...args], {
      cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), options.hangGuardMs ?? 5 * 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
