// rdx simulate: the reference simulator of the whole API on a local port, until Ctrl-C.
// The simulator (and faker with it) is imported only when the command runs, so `rdx --help` stays light.
import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { EXIT, UsageError } from '../../errors.js';
import { simulatorDefault } from '../../spec/index.js';
import { loadPersona, personaKind, personaNames } from '../../../simulator/personas/catalogue.js';
import type { Persona } from '../../../simulator/personas/types.js';
import { startSimulator } from '../../compose.js';

const ENV_ID = 'RDX_SIM_CLIENT_ID';
const ENV_SECRET = 'RDX_SIM_CLIENT_SECRET';

export function builder(y: Argv): Argv {
  const names = (kind: Persona['kind']): string => personaNames(kind).join(', ') || 'none yet';
  return y
    .usage('rdx simulate [options]\n\nServes the whole API from generated data (the same seed gives the same data). Stop it with Ctrl-C.')
    .option('port', { type: 'number', default: 8080, describe: 'Port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on (0.0.0.0 in a container)' })
    .option('seed', { type: 'number', default: 1, describe: 'Seed of the generated data' })
    .option('records', { type: 'number', default: 1000, describe: 'Seeded records, all resources together (a fifth are ATS job offers)' })
    .option('page-size', { type: 'number', describe: `Records per list page (default ${String(simulatorDefault<number>('PAGE_SIZE'))})` })
    .option('client-id', { type: 'string', describe: `Client id the token endpoint accepts; env ${ENV_ID} (default rdx-client)` })
    .option('client-secret', { type: 'string', describe: `Client secret; prefer env ${ENV_SECRET} (flags show in process lists)` })
    .option('token-ttl', { type: 'number', describe: 'Token lifetime in seconds (default 3600)' })
    .option('max-body', { type: 'number', describe: 'Largest request body in bytes; larger is answered 413' })
    .option('base-path', { type: 'string', describe: 'Mount the API under a path prefix, such as /api/v1' })
    .option('fault', { type: 'string', describe: `Break the spec on purpose with a fault persona (${names('fault')})` })
    .option('variant', { type: 'string', describe: `Read an open point another legal way (${names('variant')})` })
    .option('admin', { type: 'boolean', default: true, describe: 'Serve /__admin/ (health, reset, reseed, journal); --no-admin turns it off' })
    .option('admin-token', { type: 'string', describe: 'Token the admin surface requires off loopback (generated when not given)' })
    .option('latency', { type: 'string', array: true, requiresArg: true, describe: 'Added latency in ms: 50, a range 20-80, or per endpoint "GET /ats/job-offers=50" (repeatable)' })
    .option('error-rate', { type: 'number', describe: 'Share of API requests answered 503 with the error body and Retry-After (0.05 is 5%)' })
    .option('drop-rate', { type: 'number', describe: 'Share of API requests whose connection is closed without an answer' })
    .option('rate-limit', { type: 'string', requiresArg: true, describe: 'Per-token rate limit R[/BURST]: R requests per second, a burst of BURST (default R); over it 429 with Retry-After and the error body, as vendors run in production (40/80)' })
    .option('chaos-seed', { type: 'number', describe: 'Seed of the latency and chaos decisions (default: --seed)' })
    .option('max-connections', { type: 'number', describe: 'Connections served at once; past it the oldest idle one is closed (default 512)' })
    .option('max-tokens', { type: 'number', describe: 'Access tokens kept; past it expired ones are evicted first, then the oldest (default 100000)' })
    .option('headers-timeout', { type: 'number', describe: "Milliseconds a request's headers may take to arrive; then 408 and the connection is closed (default 10000)" })
    .option('request-timeout', { type: 'number', describe: 'Milliseconds a whole request may take to arrive (default 30000)' })
    .option('state', { type: 'string', requiresArg: true, describe: 'Snapshot file of the store: loaded at start when it exists (a file that is not a valid snapshot stops start-up), saved atomically after changes and on exit' })
    .option('public-url', { type: 'string', requiresArg: true, describe: 'The base URL clients reach the API at behind a reverse proxy (https://demo.example.com/rdx): next_link starts with it' })
    .option('trust-proxy', { type: 'boolean', default: false, describe: 'Build next_link from the Forwarded or X-Forwarded-Host/-Proto headers of the proxy in front (only behind one: clients could set them)' })
    .option('report-dir', { type: 'string', describe: 'Where conformance runs started from the dashboard write reports (default: a temporary directory)' })
    .example('rdx simulate', 'Serve on http://127.0.0.1:8080 with the demo credentials')
    .example('rdx simulate --port 0 --seed 7 --records 100000 --variant path-prefix', 'A bigger data set under /api/v1 on a free port')
    .example('rdx simulate --latency 20-80 --error-rate 0.05', 'A slow, flaky server for exercising a client\'s timeouts and retries')
    .example('rdx simulate --rate-limit 40/80', 'A per-token rate limit like a production API: 429 with Retry-After beyond 40 requests per second')
    .example('rdx simulate --state sandbox.json', 'A shared sandbox whose records survive a restart');
}

async function persona(kind: Persona['kind'], name: unknown): Promise<Persona | undefined> {
  if (name === undefined) return undefined;
  if (personaKind(String(name)) === kind) return loadPersona(String(name));
  const known = personaNames(kind);
  throw new UsageError(`unknown ${kind} ${JSON.stringify(String(name))}; known ${kind}s: ${known.length > 0 ? known.join(', ') : 'none yet'}`);
}

function numberOption(argv: Record<string, unknown>, key: string, flag: string): number | undefined {
  const value = argv[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) throw new UsageError(`${flag} must be a number`);
  return value;
}

/** A shell word: single-quoted unless plainly safe. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The banner's lines for the id logs the personas write (idSources.*.file of their profile): where each is, and the
 * profile key that names it, so a profile can be written from them.
 */
function idLogLines(personas: Persona[]): string[] {
  const logs = personas.flatMap((p) => Object.entries(p.profile?.idSources ?? {}).flatMap(([key, source]) => (source && 'file' in source ? [{ file: source.file, key }] : [])));
  if (!logs.length) return [];
  // Without RDX_SIM_ID_LOG_DIR the names carry the process id (simulator/personas/id-logs.ts).
  const note = logs.some((l) => l.file.endsWith(`-${process.pid}.jsonl`)) ? 'named for this process: set RDX_SIM_ID_LOG_DIR to keep the names across restarts' : 'the same names after a restart';
  return logs.map((l, i) => `${i === 0 ? '  id logs:       ' : '                 '}${l.file} (idSources.${l.key}.file)`).concat(`                 (${note})`);
}

function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const personas = [await persona('fault', argv['fault']), await persona('variant', argv['variant'])].filter((p): p is Persona => p !== undefined);
  const clientId = (argv['clientId'] as string | undefined) ?? process.env[ENV_ID];
  const flagSecret = argv['clientSecret'] as string | undefined;
  const clientSecret = flagSecret ?? process.env[ENV_SECRET];
  const stateFile = argv['state'] as string | undefined;
  const resumed = stateFile !== undefined && existsSync(stateFile);
  const { DEFAULT_CLIENT_SECRET } = await import('../../../simulator/options.js');
  const { chaosActive, describeChaos } = await import('../../../simulator/chaos.js');
  const sim = await startSimulator({
    host: String(argv['host']),
    port: numberOption(argv, 'port', '--port'),
    seed: numberOption(argv, 'seed', '--seed'),
    records: numberOption(argv, 'records', '--records'),
    pageSize: numberOption(argv, 'pageSize', '--page-size'),
    tokenTtl: numberOption(argv, 'tokenTtl', '--token-ttl'),
    maxBodyBytes: numberOption(argv, 'maxBody', '--max-body'),
    basePath: argv['basePath'] as string | undefined,
    admin: argv['admin'] !== false,
    adminToken: argv['adminToken'] as string | undefined,
    latency: (argv['latency'] as (string | number)[] | undefined)?.map(String),
    errorRate: numberOption(argv, 'errorRate', '--error-rate'),
    dropRate: numberOption(argv, 'dropRate', '--drop-rate'),
    ...(argv['rateLimit'] !== undefined ? { rateLimit: String(argv['rateLimit']) } : {}),
    chaosSeed: numberOption(argv, 'chaosSeed', '--chaos-seed'),
    reportDir: argv['reportDir'] as string | undefined,
    maxConnections: numberOption(argv, 'maxConnections', '--max-connections'),
    maxTokens: numberOption(argv, 'maxTokens', '--max-tokens'),
    headersTimeoutMs: numberOption(argv, 'headersTimeout', '--headers-timeout'),
    requestTimeoutMs: numberOption(argv, 'requestTimeout', '--request-timeout'),
    stateFile,
    publicUrl: argv['publicUrl'] as string | undefined,
    trustProxy: argv['trustProxy'] === true,
    clientId,
    clientSecret,
    personas,
  });
  const { options } = sim;
  const secretText = options.clientSecret === DEFAULT_CLIENT_SECRET
    ? options.clientSecret
    : flagSecret !== undefined ? '(from --client-secret)' : `(from ${ENV_SECRET})`;
  const tokenBody = JSON.stringify({
    client_id: options.clientId,
    client_secret: options.clientSecret === DEFAULT_CLIENT_SECRET ? options.clientSecret : '<client secret>',
    grant_type: 'client_credentials',
  });
  const counts = Object.entries(sim.seeded).map(([k, v]) => `${v} ${k}`).join(', ');
  const lines = [
    `rdx simulator listening on ${sim.baseUrl}`,
    `  data:          ${resumed ? `from ${stateFile}` : `seed ${options.seed}`}, ${counts}`,
    `  client id:     ${options.clientId}`,
    `  client secret: ${secretText}`,
    ...(personas.length > 0 ? [`  personas:      ${personas.map((p) => `${p.name} (${p.kind})`).join(', ')}`] : []),
    ...idLogLines(personas),
    `  get a token:   curl -s -X POST ${shellWord(`${sim.baseUrl}/oauth2/token`)} -H 'content-type: application/json' -d ${shellWord(tokenBody)}`,
    sim.adminUrl
      ? `  admin:         ${sim.adminUrl}health (not part of the API)${sim.adminToken ? `; send header x-rdx-admin-token: ${argv['adminToken'] === undefined ? sim.adminToken : '(the one given with --admin-token)'}` : ''}`
      : '  admin:         off',
    ...(sim.dashboardUrl ? [`  dashboard:     ${sim.dashboardUrl}${sim.adminToken ? ' (sign in with the admin token)' : ''}`] : []),
    ...(chaosActive(options.chaos) ? [`  chaos:         ${describeChaos(options.chaos)}`] : []),
    ...(options.rateLimit ? [`  rate limit:    ${options.rateLimit.rate} requests/s per token, burst ${options.rateLimit.burst}; over it 429 with Retry-After (${options.rateLimit.retryAfter})`] : []),
    ...(options.stateFile !== undefined ? [`  state:         ${options.stateFile} (saved after changes and on exit)`] : []),
    ...(options.publicUrl !== undefined ? [`  public URL:    ${options.publicUrl} (next_link starts with it)`] : []),
    ...(options.trustProxy ? ['  proxy:         trusted (next_link follows Forwarded / X-Forwarded-Host / X-Forwarded-Proto)'] : []),
    'Press Ctrl-C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const signal = await waitForSignal();
  process.stdout.write(`\n${signal}: stopping the simulator\n`);
  await sim.close();
  return EXIT.OK;
}
