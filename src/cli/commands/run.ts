// rdx run: the conformance suite against a base URL, or against the bundled simulator when none is given.
import type { Argv } from 'yargs';
import { loadProfile, numberFlag, type Profile, type ProfileFlags } from '../../config/profile.js';
import { runConformance } from '../../engine/run.js';
import { embeddedSimulator } from '../compose.js';
import { UsageError } from '../../errors.js';
import { writeReports } from '../../reporters/files.js';
import { readBaseline, writeBaseline } from '../../engine/baseline.js';
import { loadSuites } from '../../engine/suite.js';
import { operations } from '../../spec/index.js';
import { filterOptions, filtersFrom } from './filters.js';
import { containerOptions, containerTargetFrom } from '../../container/options.js';

export function builder(y: Argv): Argv {
  return containerOptions(filterOptions(y))
    .usage('rdx run [options]\n\nRuns the conformance suites. Without --base-url it starts the bundled simulator on a free loopback port and runs against it.')
    .option('base-url', { type: 'string', describe: 'Base URL of the implementation (may carry a path prefix); env RDX_BASE_URL' })
    .option('token-url', { type: 'string', describe: 'Token endpoint (default <base-url>/oauth2/token)' })
    .option('client-id', { type: 'string', describe: 'Client id; env RDX_CLIENT_ID' })
    .option('client-secret', { type: 'string', describe: 'Client secret; prefer env RDX_CLIENT_SECRET (flags show in process lists)' })
    .option('config', { alias: 'c', type: 'string', describe: 'Target profile (default ./rdx.config.yaml or .json if present)' })
    .option('timeout', { type: 'number', describe: 'Per-request time limit in milliseconds, connect to last byte: at least 100 (default 10000)' })
    .option('retries', { type: 'number', describe: 'Extra attempts on transport errors only, never on an HTTP answer: 0 to 5 (default 0)' })
    .option('insecure', { type: 'boolean', describe: 'Do not verify TLS certificates' })
    .option('ca', { type: 'string', describe: 'PEM file of extra certificate authorities' })
    .option('proxy', { type: 'string', describe: 'HTTP(S) proxy URL' })
    .option('seed', { type: 'number', describe: 'Seed of generated data (default 1)' })
    .option('allow-irreversible', { type: 'boolean', describe: 'Also run irreversible cases (PUT /users replaces every user)' })
    .option('reporter', { alias: 'R', type: 'string', default: 'spec', describe: 'Mocha reporter for the console (spec, dot, list, json, tap, …, or none)' })
    .option('bail', { alias: 'b', type: 'boolean', describe: 'Stop after the first failing case (mocha --bail)' })
    .option('baseline', { type: 'string', describe: 'Known failures (YAML): reported, but they do not fail the run; a stale entry is an error' })
    .option('update-baseline', { type: 'string', describe: 'Write the failures of this run to this baseline file (reasons kept)' })
    .option('report-dir', { type: 'string', default: 'reports', describe: 'Where reports/<run-id>/ and reports/latest go' })
    .option('reports', { type: 'boolean', default: true, describe: 'Write report files (--no-reports writes none)' })
    .option('bundle', { type: 'boolean', describe: 'Also write bundle.tar.gz beside the reports: a certification bundle rdx verify can check offline' })
    .example('rdx run', 'Run everything against the bundled simulator')
    .example('RDX_CLIENT_SECRET=… rdx run --base-url https://staging.example/api --client-id acme --level MUST', 'Gate a staging deployment on MUST cases');
}

export async function handler(argv: Record<string, unknown>): Promise<number> {
  if (argv['bundle'] && argv['reports'] === false) throw new UsageError('--bundle needs the reports: drop --no-reports');
  const flags: ProfileFlags = {
    ...(argv['config'] !== undefined ? { config: String(argv['config']) } : {}),
    ...(argv['baseUrl'] !== undefined ? { baseUrl: String(argv['baseUrl']) } : {}),
    ...(argv['tokenUrl'] !== undefined ? { tokenUrl: String(argv['tokenUrl']) } : {}),
    ...(argv['clientId'] !== undefined ? { clientId: String(argv['clientId']) } : {}),
    ...(argv['clientSecret'] !== undefined ? { clientSecret: String(argv['clientSecret']) } : {}),
    ...(argv['timeout'] !== undefined ? { timeout: numberFlag('--timeout', argv['timeout'], ['http', 'timeoutMs'], 'milliseconds (10000 is 10 s)') } : {}),
    ...(argv['retries'] !== undefined ? { retries: numberFlag('--retries', argv['retries'], ['http', 'retries'], 'extra attempts on transport errors') } : {}),
    ...(argv['insecure'] !== undefined ? { insecure: Boolean(argv['insecure']) } : {}),
    ...(argv['ca'] !== undefined ? { ca: String(argv['ca']) } : {}),
    ...(argv['proxy'] !== undefined ? { proxy: String(argv['proxy']) } : {}),
    ...(argv['seed'] !== undefined ? { seed: numberFlag('--seed', argv['seed'], ['seed'], 'the seed of the generated data') } : {}),
    ...(argv['allowIrreversible'] !== undefined ? { allowIrreversible: Boolean(argv['allowIrreversible']) } : {}),
  };
  const profile = loadProfile(flags);
  const container = containerTargetFrom(argv);
  const conform = (profile: Profile) => runConformance({
    profile,
    filters: filtersFrom(argv, (name) => operations().find((o) => o.operationId === name)?.endpoint),
    reporter: String(argv['reporter'] ?? 'spec'),
    bail: Boolean(argv['bail']),
    ...(typeof argv['baseline'] === 'string' ? { baseline: argv['baseline'] } : {}),
    ...(container ? { image: container.image } : {}),
    simulator: embeddedSimulator(),
  });
  // testcontainers is loaded only with --image; withContainer removes the container however the run ends.
  const { report, exitCode } = container
    ? await (await import('../../container/index.js')).withContainer(container, profile, conform)
    : await conform(profile);
  if (typeof argv['updateBaseline'] === 'string') {
    const previous = typeof argv['baseline'] === 'string' ? readBaseline(argv['baseline'], new Set(loadSuites().map((c) => c.id))) : [];
    const n = writeBaseline(argv['updateBaseline'], report.cases, previous);
    process.stderr.write(`Baseline: ${n} known failure(s) written to ${argv['updateBaseline']}\n`);
  }
  if (report.baseline) {
    const b = report.baseline;
    if (b.unexpectedPasses.length) process.stderr.write(`Baseline: ${b.unexpectedPasses.length} known failure(s) now pass, remove them: ${b.unexpectedPasses.join(', ')}\n`);
    if (b.expired.length) process.stderr.write(`Baseline: ${b.expired.length} entr(ies) expired and count again: ${b.expired.join(', ')}\n`);
  }
  const s = report.summary;
  const counts = Object.entries(s.byVerdict).map(([k, v]) => `${v} ${k}`).join(', ');
  process.stderr.write(`\n${s.conformant ? 'CONFORMANT' : 'NOT CONFORMANT'}: ${counts} (${s.mustFailures} MUST failure(s), ${s.errors} error(s))\n`);
  if (report.residue.length) process.stderr.write(`Residue: ${report.residue.length} record(s) created and not deleted (listed in report.json)\n`);
  if (argv['reports'] !== false) {
    const written = writeReports(report, String(argv['reportDir'] ?? 'reports'), { bundle: argv['bundle'] === true });
    process.stderr.write(`Reports: ${written.files.join(', ')}\n`);
    if (written.bundle) process.stderr.write(`Bundle manifest.json sha256 ${written.bundle.manifestSha256} (publish it to pin the bundle; rdx verify prints it)\n`);
  }
  return exitCode;
}
