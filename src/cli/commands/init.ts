// rdx init: writes a commented target profile, its `declared:` section generated from the interpretation register.
import { existsSync, writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { interpretations } from '../../spec/index.js';
import { UsageError } from '../../errors.js';

export function builder(y: Argv): Argv {
  return y
    .usage('rdx init [--file rdx.config.yaml]\n\nWrites a commented target profile to fill in.')
    .option('file', { type: 'string', default: 'rdx.config.yaml', describe: 'Where to write it' })
    .option('force', { type: 'boolean', describe: 'Overwrite an existing file' });
}

export function profileTemplate(): string {
  const declared = interpretations()
    .filter((i) => i.key)
    .map((i) => `  # ${i.id}: ${i.question}\n  #   allowed: ${JSON.stringify(i.values ?? 'see spec/interpretations.yaml')}; the simulator does: ${JSON.stringify(i.simulator.default)}\n  # ${i.key}: ${JSON.stringify(i.simulator.default)}`)
    .join('\n');
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
declared:
${declared}

fixtures:
  # {id} values of existing ATS job offers, if {id} is not the job offer's reference.
  # atsJobOfferIds: ["123"]
  # An access token that has expired, to check that expired tokens are refused.
  # expiredToken: \${env:RDX_EXPIRED_TOKEN}

http:
  timeoutMs: 10000
  retries: 0
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
  if (existsSync(file) && !argv['force']) throw new UsageError(`${file} exists; use --force to overwrite it`);
  writeFileSync(file, profileTemplate());
  process.stdout.write(`wrote ${file}: fill in baseUrl, export RDX_CLIENT_ID and RDX_CLIENT_SECRET, then run: rdx run --config ${file}\n`);
  return 0;
}
