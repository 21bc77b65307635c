// The `rdx run --image` flags and their parsing into a ContainerTarget (src/container/options.ts), which the
// container layer starts: flag parsing lives in the CLI, the container layer knows no flags.
import type { Argv } from 'yargs';
import { UsageError } from '../../errors.js';
import { DEFAULT_CONTAINER_PORT, DEFAULT_STARTUP_TIMEOUT_MS, type ContainerTarget, type WaitFor } from '../../container/options.js';

// A limit on the limit: a typo of a few zeros should not leave CI waiting for hours.
const MAX_STARTUP_TIMEOUT_MS = 30 * 60_000;

const CONTAINER_FLAGS = ['containerPort', 'env', 'waitFor', 'startupTimeout', 'network', 'basePath'] as const;
const FLAG_NAMES: Record<(typeof CONTAINER_FLAGS)[number], string> = {
  containerPort: '--container-port',
  env: '--env',
  waitFor: '--wait-for',
  startupTimeout: '--startup-timeout',
  network: '--network',
  basePath: '--base-path',
};

export function containerOptions(y: Argv): Argv {
  return y
    .option('image', { type: 'string', describe: 'Start the implementation from this container image, test it, remove it (needs a Docker engine); -- CMD… replaces its command' })
    .option('container-port', { type: 'number', describe: `With --image: the port the implementation listens on in the container (default ${DEFAULT_CONTAINER_PORT})` })
    .option('env', { type: 'string', describe: 'With --image: KEY=VALUE set in the container (repeatable)' })
    .option('wait-for', { type: 'string', describe: 'With --image: when the container is ready: port | log:<regex> | http:<path> (default port)' })
    .option('startup-timeout', { type: 'number', describe: `With --image: ms to wait for readiness (default ${DEFAULT_STARTUP_TIMEOUT_MS})` })
    .option('network', { type: 'string', describe: 'With --image: Docker network mode; "host" where the engine has no bridge (the container then listens on 127.0.0.1 directly)' })
    .option('base-path', { type: 'string', describe: 'With --image: path prefix of the API in the container, e.g. /api/v1' })
    .example('rdx run --image rdx-conformance:local --network host --container-port 18080 -- rdx simulate --host 127.0.0.1 --port 18080', 'Test a container image, overriding its command');
}

/**
 * The container to start, or undefined without --image. `rawArgs` are the process arguments: the command after
 * `--` is read from them because yargs turns words that look like numbers into numbers ("1.0" would become 1).
 */
export function containerTargetFrom(argv: Record<string, unknown>, rawArgs: readonly string[] = process.argv.slice(2)): ContainerTarget | undefined {
  const dashDash = rawArgs.indexOf('--');
  const command = dashDash >= 0 ? rawArgs.slice(dashDash + 1) : [];
  const stray = (Array.isArray(argv['_']) ? argv['_'] : []).slice(1);
  if (argv['image'] === undefined) {
    const given = CONTAINER_FLAGS.filter((k) => argv[k] !== undefined).map((k) => FLAG_NAMES[k]);
    if (given.length > 0) throw new UsageError(`${given.join(', ')} only apply with --image`);
    if (command.length > 0) throw new UsageError('a command after -- only applies with --image');
    return undefined;
  }
  if (dashDash < 0 && stray.length > 0) throw new UsageError(`unexpected argument(s): ${stray.map(String).join(' ')} (put the container's command after --)`);
  const image = single(argv['image'], '--image');
  if (!image || /\s/.test(image) || image.startsWith('-')) throw new UsageError(`--image ${JSON.stringify(image)}: give an image reference such as rdx-conformance:local or registry.example/impl:1.2`);
  if (argv['baseUrl'] !== undefined) throw new UsageError('--base-url and --image exclude each other: with --image the base URL is the container\'s');

  const network = argv['network'] === undefined ? undefined : single(argv['network'], '--network');
  if (network !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(network)) {
    throw new UsageError(`--network ${JSON.stringify(network)}: give a Docker network mode such as host or bridge`);
  }
  const basePath = argv['basePath'] === undefined ? '' : single(argv['basePath'], '--base-path').replace(/\/+$/, '');
  if (basePath !== '' && !/^\/[^\s?#]*$/.test(basePath)) throw new UsageError(`--base-path ${JSON.stringify(basePath)}: give a path such as /api/v1`);

  return {
    image,
    containerPort: port(argv['containerPort']),
    env: envEntries(argv['env']),
    waitFor: parseWaitFor(argv['waitFor'] === undefined ? 'port' : single(argv['waitFor'], '--wait-for')),
    startupTimeoutMs: startupTimeout(argv['startupTimeout']),
    ...(network !== undefined ? { network } : {}),
    basePath,
    ...(command.length > 0 ? { command } : {}),
  };
}

/** A flag given twice arrives as an array; the last one wins, as yargs does for numbers. */
function single(value: unknown, flag: string): string {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof last !== 'string' && typeof last !== 'number') throw new UsageError(`${flag} needs a value`);
  return String(last);
}

function port(value: unknown): number {
  if (value === undefined) return DEFAULT_CONTAINER_PORT;
  const n = Number(Array.isArray(value) ? value[value.length - 1] : value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UsageError(`--container-port must be a port number 1..65535 (got ${String(value)})`);
  return n;
}

function startupTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_STARTUP_TIMEOUT_MS;
  const n = Number(Array.isArray(value) ? value[value.length - 1] : value);
  if (!Number.isFinite(n) || n <= 0 || n > MAX_STARTUP_TIMEOUT_MS) {
    throw new UsageError(`--startup-timeout must be a number of milliseconds, 1..${MAX_STARTUP_TIMEOUT_MS} (got ${String(value)})`);
  }
  return Math.ceil(n);
}

/**
 * --env entries. A malformed entry is named by what looks like its name only: an entry such as
 * DB_PASSWORD:hunter2 (a colon for the equals sign) must not put the password in the error message.
 */
export function envEntries(value: unknown): Record<string, string> {
  const entries = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const text = String(entry);
    const eq = text.indexOf('=');
    const name = eq >= 0 ? text.slice(0, eq) : text;
    if (eq < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      const shown = /^[A-Za-z0-9_]*/.exec(text)?.[0] ?? '';
      const label = shown.length === text.length ? text : `${shown}…`;
      const why = eq < 0 ? 'no "="' : name === '' ? 'the name before "=" is empty' : `${JSON.stringify(name)} is not a variable name`;
      throw new UsageError(`--env ${label}: expected KEY=VALUE (${why}), e.g. --env LOG_LEVEL=debug`);
    }
    env[name] = text.slice(eq + 1);
  }
  return env;
}

export function parseWaitFor(text: string): WaitFor {
  if (text === 'port') return { kind: 'port' };
  if (text.startsWith('log:')) {
    const source = text.slice('log:'.length);
    if (source === '') throw new UsageError('--wait-for log: needs a regular expression, e.g. log:listening on');
    try {
      return { kind: 'log', pattern: new RegExp(source) };
    } catch {
      throw new UsageError(`--wait-for ${text}: ${JSON.stringify(source)} is not a valid regular expression`);
    }
  }
  if (text.startsWith('http:')) {
    const path = text.slice('http:'.length);
    if (!/^\/[^\s#]*$/.test(path)) throw new UsageError(`--wait-for ${text}: give a path starting with /, e.g. http:/health`);
    return { kind: 'http', path };
  }
  throw new UsageError(`--wait-for ${text}: expected port, log:<regex> or http:<path>`);
}
