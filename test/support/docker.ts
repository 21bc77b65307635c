// What the tests that need a Docker engine share: the docker CLI, why they cannot run here, a free host port.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';

export interface DockerResult {
  /** null: the docker CLI could not be started (not installed, or it ran past the time limit). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export function docker(args: string[], limitMs = 30_000): DockerResult {
  const r = spawnSync('docker', args, { encoding: 'utf8', timeout: limitMs });
  const why = r.error ? `\n(docker ${args[0] ?? ''}: ${r.error.message}, limit ${limitMs} ms)` : '';
  return { code: r.error ? null : r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${why}` };
}

/**
 * What the engine holds and the end of its log (scripts/docker-engine.sh keeps it), printed after a failed test:
 * a container test that fails once in a loaded CI must say whether the engine, not the product, was the cause.
 */
export function engineState(): string {
  // As the script reads them: an empty variable counts as unset.
  const tmp = process.env['TMPDIR'] === undefined || process.env['TMPDIR'] === '' ? '/tmp' : process.env['TMPDIR'];
  const state = process.env['RDX_DOCKER_STATE'] === undefined || process.env['RDX_DOCKER_STATE'] === '' ? `${tmp}/rdx-docker-engine` : process.env['RDX_DOCKER_STATE'];
  const log = `${state}/dockerd.log`;
  let tail: string;
  try {
    tail = readFileSync(log, 'utf8').split('\n').slice(-25).join('\n');
  } catch {
    tail = `(no ${log}: an engine this repository's script did not start)`;
  }
  const ps = docker(['ps', '-a', '--format', '{{.ID}} {{.Image}} {{.Status}} {{.Names}}'], 10_000);
  const df = docker(['system', 'df'], 10_000);
  return [`docker ps -a:\n${ps.stdout}${ps.stderr}`, `docker system df:\n${df.stdout}${df.stderr}`, `the end of ${log}:\n${tail}`].join('\n');
}

/** For an afterEach hook: prints engineState() after the test that just ran, if it failed. */
export function showEngineIfFailed(test: Mocha.Test | undefined): void {
  if (test?.state === 'failed') console.log(`    the engine after "${test.title}" failed:\n${engineState()}`);
}

/** Why tests of `image` cannot run here (no CLI, no engine, no image: then howToBuild says how), or undefined. */
export function dockerUnavailable(image: string, howToBuild: string): string | undefined {
  const info = docker(['info', '--format', '{{.ServerVersion}}']);
  if (info.code === null) return 'the docker CLI is not installed';
  if (info.code !== 0) return `no Docker engine answers (docker info: ${info.stderr.trim().split('\n')[0] ?? ''}); start one with scripts/docker-engine.sh start`;
  if (docker(['image', 'inspect', image]).code !== 0) return `the image ${image} is missing; ${howToBuild}`;
  return undefined;
}

/** A loopback port nothing listens on at the moment (for a container on the host network). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
