// rdx init: writes a commented target profile, its `declared:` section generated from the interpretation register.
import { existsSync, writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { interpretations, type Interpretation } from '../../spec/index.js';
import { UnreachableError, UsageError } from '../../errors.js';
import { ID_SOURCE_RESOURCES, keyFields, type IdSourceResource } from '../../engine/id-sources.js';
import { findFixtureCandidates, type FixtureSearch } from '../../engine/fixture-candidates.js';
import { stripUserinfo } from '../../http/redact.js';
import { atsJobOfferIdsEntry, initProfile, searchLines } from './init-fixtures.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx init [--file rdx.config.yaml] [--base-url URL]\n\nWrites a commented target profile to fill in. With --base-url it also reads the target: a token (credentials as rdx run takes them), the first page of GET /ats/job-offers, and GET /ats/job-offers/{id} for at most 3 references; it lists up to 10 job offers and writes the first one read back by its reference as fixtures.atsJobOfferIds. The file is written even when the target cannot be reached or refuses the credentials (without a fixture; exit 3).')
    .option('file', { type: 'string', default: 'rdx.config.yaml', describe: 'Where to write it' })
    .option('force', { type: 'boolean', describe: 'Overwrite an existing file' })
    .option('base-url', { type: 'string', describe: 'Base URL of the implementation: written as baseUrl, and read for job offers to name as fixtures' })
    .option('token-url', { type: 'string', describe: 'With --base-url: the token endpoint (default <base-url>/oauth2/token), written as tokenUrl' })
    .option('client-id', { type: 'string', describe: 'With --base-url: client id; env RDX_CLIENT_ID' })
    .option('client-secret', { type: 'string', describe: 'With --base-url: client secret; prefer env RDX_CLIENT_SECRET (flags show in process lists). Never written to the file' })
    .option('timeout', { type: 'number', describe: 'With --base-url: per-request time limit in milliseconds (default 10000); the whole search stops after 60 s' })
    .option('insecure', { type: 'boolean', describe: 'With --base-url: do not verify TLS certificates' })
    .option('ca', { type: 'string', describe: 'With --base-url: PEM file of extra certificate authorities' })
    .option('proxy', { type: 'string', describe: 'With --base-url: HTTP(S) proxy URL' })
    .example('RDX_CLIENT_ID=acme RDX_CLIENT_SECRET=… rdx init --base-url https://staging.example/api', 'Write rdx.config.yaml for that target, with a job offer it holds as the fixture');
}

/** "repeat | brackets" for a list of values, else the register's own words ("a positive integer"). */
function allowedText(values: unknown): string {
  if (Array.isArray(values)) return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' | ');
  return typeof values === 'string' ? values : 'see spec/interpretations.yaml';
}

/**
 * The simulator's behaviour written as a declared value (the register's `simulator.declared`, else its `default`)
 * when that is a value the register allows for the key; otherwise undefined, and only the simulator's text says
 * what it does (its "free-text" statuses are no list to declare).
 */
export function declarableDefault(i: Interpretation): unknown {
  const d = i.simulator.declared ?? i.simulator.default;
  if (Array.isArray(i.values)) return i.values.some((v) => JSON.stringify(v) === JSON.stringify(d)) ? d : undefined;
  const kind = typeof i.values === 'string' ? i.values : '';
  if (/positive integer/.test(kind)) return Number.isInteger(d) && (d as number) > 0 ? d : undefined;
  if (/^list of/.test(kind)) return Array.isArray(d) ? d : undefined;
  if (/^map of/.test(kind)) return d && typeof d === 'object' && !Array.isArray(d) ? d : undefined;
  return undefined;
}

/** One commented entry of `declared:` per register key: the question, what may be declared, what the simulator does. */
export function declaredSection(): string {
  return interpretations()
    .filter((i) => i.key)
    .map((i) => {
      const value = declarableDefault(i);
      return [
        `  # ${i.id}: ${i.question}`,
        `  #   allowed: ${allowedText(i.values)}`,
        `  #   the simulator: ${i.simulator.text}`,
        value === undefined ? `  # ${i.key}:   # no example: what the simulator does is not one of the allowed values` : `  # ${i.key}: ${JSON.stringify(value)}`,
      ].join('\n');
    })
    .join('\n');
}

/**
 * The commented `idSources:` section: what it is for, the fields that name each resource's records (read from
 * spec/schemas, like the harness), and an example of each form (file, command, url) to uncomment.
 */
export function idSourcesSection(): string {
  const keys = (Object.keys(ID_SOURCE_RESOURCES) as IdSourceResource[]).map((r) => `#   ${ID_SOURCE_RESOURCES[r].key.padEnd(18)}${keyFields(r).join(', ')}`);
  const placeholders = (r: IdSourceResource): string => keyFields(r).map((f) => `{${f}}`).join(' ');
  const query = (r: IdSourceResource): string => keyFields(r).map((f) => `${f}={${f}}`).join('&');
  return `# How the harness learns the {id} of a record it creates when no answer shows it: a batch create answered with
# {message} only, or an ATS job offer whose {id} is not its reference (declare atsJobOfferId: fixtures above).
# Without it, the cases that need such an id are not judged and the run is INCOMPLETE, its unlock list naming the
# key to give. One source per resource, each exactly one of file, command or url, asked by the fields that name the
# record in the request that created it:
${keys.join('\n')}
# Activities are looked for first in GET /jobboard/activities filtered by those fields; their source is asked only
# when that does not single the record out. See docs/verdicts.md ("Ids that responses never show").
# idSources:
#   # file: a JSON-lines id log your implementation appends one line to per record it creates, e.g.
#   #   {"reference": "JO-1", "id": 1234}
#   atsJobOffer:
#     file: /var/log/acme/rdx-ids/ats-job-offers.jsonl
#   # command: run once per record, each {field} replaced (shell-quoted) and set as RDX_<FIELD>; it prints the id.
#   applicationStep:
#     command: ./scripts/lookup-id application-step ${placeholders('application-step')}
#   # url: a lookup on the base URL's origin (it is sent the run's token), each {field} URL-encoded; it answers the
#   # id as text, JSON, {id} or {data: [{id}]}.
#   jobboardJobOffer:
#     url: https://staging.example.com/api/internal/ids/jobboard-job-offers?${query('jobboard-job-offer')}
#   jobboardActivity:
#     file: /var/log/acme/rdx-ids/jobboard-activities.jsonl`;
}

/** What init read of the target (rdx init --base-url): written into the profile in place of the placeholders. */
export interface TemplateTarget {
  baseUrl: string;
  tokenUrl?: string;
  /** The job offers it holds; undefined when they could not be read. */
  search?: FixtureSearch;
}

export function profileTemplate(target?: TemplateTarget): string {
  const declared = declaredSection();
  // A password in a URL given on the command line is a secret: the file gets the URL without it.
  const baseUrl = target ? JSON.stringify(stripUserinfo(target.baseUrl)) : 'https://staging.example.com/api';
  const tokenUrl = target?.tokenUrl !== undefined ? `tokenUrl: ${JSON.stringify(stripUserinfo(target.tokenUrl))}` : '# tokenUrl: https://staging.example.com/api/oauth2/token   # default: <baseUrl>/oauth2/token';
  return `# rdx target profile. Schema: src/config/rdx.config.schema.json. Precedence: flags > environment > this file.
# Strings may read the environment as \${env:NAME}; give secrets only that way.

# Base URL of the implementation under test (may carry a path prefix).
baseUrl: ${baseUrl}

${tokenUrl}

credentials:
  clientId: \${env:RDX_CLIENT_ID}
  clientSecret: \${env:RDX_CLIENT_SECRET}

# What your implementation does where the spec is silent ("not shown"). Each key is optional: what you declare
# here is compared with what the harness observes, and a mismatch is reported as a SHOULD failure.
# Each entry: the open point of spec/interpretations.yaml, the values you may declare, what the bundled simulator
# does, and the key (with the simulator's choice as its value where that is one of the allowed values).
declared:
${declared}

fixtures:
${atsJobOfferIdsEntry(target?.search)}
  # An access token that has expired, to check that expired tokens are refused.
  # expiredToken: \${env:RDX_EXPIRED_TOKEN}

${idSourcesSection()}

http:
  timeoutMs: 10000
  # Extra attempts after a broken connection, for GET, HEAD, PUT and DELETE only (a POST is never sent twice).
  retries: 0
  # A 429 (or a 503 with Retry-After) is waited out and the request sent again. Hold the run under your limit:
  # rateLimit: 20          # requests per second (like --rate)
  # maxWaitMs: 60000       # longest single wait
  # maxTotalWaitMs: 600000 # all waits of a run together
  # insecure: false
  # ca: ./ca.pem
  # proxy: http://proxy.internal:3128

seed: 1
# Irreversible cases (PUT /users replaces every user) run only when this is true or --allow-irreversible is given.
allowIrreversible: false
`;
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  const file = String(argv['file']);
  if (existsSync(file) && !argv['force']) throw new UsageError(`${file} exists; use --force to overwrite it`, 'RDX_ERR_WRITE');
  if (argv['baseUrl'] === undefined) {
    const given = ['tokenUrl', 'clientId', 'clientSecret', 'timeout', 'insecure', 'ca', 'proxy'].find((k) => argv[k] !== undefined);
    if (given) throw new UsageError(`rdx init: --${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --base-url (it reads the target)`);
    write(file, profileTemplate());
    process.stdout.write(`wrote ${file}: fill in baseUrl, export RDX_CLIENT_ID and RDX_CLIENT_SECRET, then run: rdx run --config ${file}\n`);
    return 0;
  }
  const profile = initProfile(argv);
  let search: FixtureSearch | undefined;
  let unreachable: UnreachableError | undefined;
  try {
    search = await findFixtureCandidates(profile);
  } catch (error) {
    // Nothing to list, but the profile is still worth writing: the base URL is known. The exit code says it (3).
    if (!(error instanceof UnreachableError)) throw error;
    unreachable = error;
  }
  const tokenUrl = profile.tokenUrl ? { tokenUrl: profile.tokenUrl } : {};
  write(file, profileTemplate({ baseUrl: profile.baseUrl as string, ...tokenUrl, ...(search ? { search } : {}) }));
  if (unreachable) throw new UnreachableError(`${unreachable.message}; wrote ${file} without a fixture (rdx init --base-url … --force lists job offers again)`, unreachable.code as UnreachableCode);
  for (const line of searchLines(search as FixtureSearch, file)) process.stdout.write(`${line}\n`);
  process.stdout.write(`wrote ${file}: export RDX_CLIENT_ID and RDX_CLIENT_SECRET where the run runs, then: rdx run --config ${file}\n`);
  return 0;
}

type UnreachableCode = ConstructorParameters<typeof UnreachableError>[1];

function write(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new UsageError(`${file}: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'RDX_ERR_WRITE');
  }
}
