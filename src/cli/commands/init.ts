// rdx init: writes a commented target profile, its `declared:` section generated from the interpretation register.
import { existsSync, writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { interpretations, type Interpretation } from '../../spec/index.js';
import { UsageError } from '../../errors.js';
import { ID_SOURCE_RESOURCES, keyFields, type IdSourceResource } from '../../engine/id-sources.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx init [--file rdx.config.yaml]\n\nWrites a commented target profile to fill in.')
    .option('file', { type: 'string', default: 'rdx.config.yaml', describe: 'Where to write it' })
    .option('force', { type: 'boolean', describe: 'Overwrite an existing file' });
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

export function profileTemplate(): string {
  const declared = declaredSection();
  return `# rdx target profile. Schema: src/config/rdx.config.schema.json. Precedence: flags > environment > this file.
# Strings may read the environment as \${env:NAME}; give secrets only that way.

# Base URL of the implementation under test (may carry a path prefix).
baseUrl: https://staging.example.com/api

# tokenUrl: https://staging.example.com/api/oauth2/token   # default: <baseUrl>/oauth2/token

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
  # {id} values of existing ATS job offers, if {id} is not the job offer's reference. No answer of the API shows
  # one (RECORD.ATS_NO_ID): take it from your own store, e.g. the id of any row of your job offers table, or a
  # line of the id log (or the answer of the command) your idSources below names for a job offer you created.
  # atsJobOfferIds: ["123"]
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
  writeFileSync(file, profileTemplate());
  process.stdout.write(`wrote ${file}: fill in baseUrl, export RDX_CLIENT_ID and RDX_CLIENT_SECRET, then run: rdx run --config ${file}\n`);
  return 0;
}
