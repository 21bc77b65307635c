// What `rdx run --image` starts: the container target and its defaults. Its flags are parsed in the CLI
// (src/cli/commands/container-flags.ts). This module must stay free of testcontainers: the CLI imports it for every
// run, and testcontainers is loaded (from ./index.ts) only when --image is given.

export type WaitFor =
  | { kind: 'port' }
  | { kind: 'log'; pattern: RegExp }
  | { kind: 'http'; path: string };

export interface ContainerTarget {
  image: string;
  /** Where the implementation listens inside the container (on the host's loopback with --network host). */
  containerPort: number;
  env: Record<string, string>;
  waitFor: WaitFor;
  startupTimeoutMs: number;
  /** A Docker network mode ("host", "bridge", a network name); the engine's default when undefined. */
  network?: string;
  /** Path prefix of the API in the container: '' or '/api/v1'. */
  basePath: string;
  /** Replaces the image's command (the words after `--`). */
  command?: string[];
}

export const DEFAULT_CONTAINER_PORT = 8080;
export const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;
/** How the wait reads in messages. */
export function describeWaitFor(waitFor: WaitFor, port: number): string {
  switch (waitFor.kind) {
    case 'port': return `port ${port} to accept connections (--wait-for port)`;
    case 'log': return `a log line matching /${waitFor.pattern.source}/ (--wait-for log:${waitFor.pattern.source})`;
    case 'http': return `GET ${waitFor.path} on port ${port} to answer 2xx (--wait-for http:${waitFor.path})`;
  }
}
