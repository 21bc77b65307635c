// Runs examples/github-actions.yml's steps as written, with their environment, against the bundled simulator behaving
// like the vendor of docs/ci.md: its run steps in bash as GitHub runs them (bash -eo pipefail), their `if:` evaluated
// for the few functions the workflow uses, the `uses:` steps (GitHub's own actions) left out, and the install step
// replaced by the harness of this checkout on PATH (the tarball install is test/packaging/installed.test.ts's).
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../spec/index.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { personaByName, type Persona } from '../../simulator/personas/index.js';
import { ID_LOGS } from '../../simulator/personas/variants/message-only-with-id-logs.js';
import { profileTemplate } from '../cli/commands/init.js';

interface Step { name?: string; uses?: string; run?: string; if?: string; env?: Record<string, string> }
interface Workflow { env?: Record<string, string>; jobs: Record<string, { steps: Step[] }> }

interface Context {
  work: string;
  vars: Record<string, string>;
  secrets: Record<string, string>;
  ref: string;
  event: string;
}

interface JobRun {
  ran: { name: string; code: number; stderr: string }[];
  failed?: string;
  summary: string;
}

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');
const INSTALL = 'Install the harness';

/** An env value with ${{ vars.X }} / ${{ secrets.X }} put in; any other expression is a test error, never guessed. */
function expand(value: string, ctx: Context): string {
  return value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => {
    const m = /^(vars|secrets)\.([A-Z_]+)$/.exec(e);
    if (!m) throw new Error(`the workflow uses an expression this test does not know: ${e}`);
    return (m[1] === 'vars' ? ctx.vars : ctx.secrets)[m[2] as string] ?? '';
  });
}

/** A step's `if:`, for the functions the workflow uses; an unknown one is a test error. */
function condition(text: string | undefined, ctx: Context, ok: boolean): boolean {
  if (text === undefined) return ok;
  const e = text.replace(/^\$\{\{\s*|\s*\}\}$/g, '')
    .replace(/hashFiles\('([^']+)'\)/g, (_, p: string) => JSON.stringify(existsSync(join(ctx.work, p)) ? 'hash' : ''))
    .replace(/cancelled\(\)/g, 'false').replace(/success\(\)/g, String(ok)).replace(/failure\(\)/g, String(!ok))
    .replace(/github\.ref/g, JSON.stringify(ctx.ref)).replace(/github\.event_name/g, JSON.stringify(ctx.event));
  const bare = e.replace(/"[^"]*"|'[^']*'/g, '');
  if (/[A-Za-z_]/.test(bare.replace(/\b(true|false)\b/g, ''))) throw new Error(`the workflow uses a condition this test does not know: ${text}`);
  return Boolean(new Function(`return (${e.replace(/'/g, '"')});`)());
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

/** The job's steps in order, as a runner would take them. */
async function runJob(workflow: Workflow, ctx: Context): Promise<JobRun> {
  const bin = join(ctx.work, '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'rdx'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`);
  chmodSync(join(bin, 'rdx'), 0o755);
  const summaryFile = join(ctx.work, '.step-summary.md');
  writeFileSync(summaryFile, '');
  const out: JobRun = { ran: [], summary: '' };
  let ok = true;
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      if (step.uses || step.run === undefined || step.name === INSTALL || !condition(step.if, ctx, ok)) continue;
      const env: NodeJS.ProcessEnv = {
        PATH: `${bin}:${process.env['PATH'] ?? ''}`, HOME: process.env['HOME'] ?? ctx.work, GITHUB_STEP_SUMMARY: summaryFile, CI: 'true',
        ...Object.fromEntries(Object.entries({ ...workflow.env, ...step.env }).map(([k, v]) => [k, expand(String(v), ctx)])),
      };
      const r = await bash(step.run, ctx.work, env);
      out.ran.push({ name: step.name ?? step.run, code: r.code, stderr: r.stderr });
      if (r.code !== 0 && ok) {
        ok = false;
        out.failed = step.name ?? step.run;
      }
    }
  }
  out.summary = readFileSync(summaryFile, 'utf8');
  return out;
}

/** The profile of docs/ci.md, with the log directory and files it names replaced by the simulator's. */
function workedProfile(): string {
  const doc = readFileSync(join(packageRoot, 'docs', 'ci.md'), 'utf8');
  const block = /<!-- ci-example-profile:[^\n]*-->\n```yaml\n([\s\S]*?)```\n<!-- ci-example-profile: end -->/.exec(doc)?.[1];
  if (!block) throw new Error('docs/ci.md has no ci-example-profile block');
  const logs: Record<string, string> = {
    'ats-job-offers.jsonl': ID_LOGS.atsJobOffer, 'application-steps.jsonl': ID_LOGS.applicationStep,
    'jobboard-activities.jsonl': ID_LOGS.jobboardActivity, 'jobboard-job-offers.jsonl': ID_LOGS.jobboardJobOffer,
  };
  return block.replace(/\/var\/log\/acme\/rdx-ids\/([\w-]+\.jsonl)/g, (whole, name: string) => logs[name] ?? whole);
}

describe('examples/github-actions.yml, run as written against the simulator', function () {
  this.timeout(300_000);
  const workflow = parseYaml(readFileSync(join(packageRoot, 'examples', 'github-actions.yml'), 'utf8')) as Workflow;
  const vendor = personaByName('message-only-with-id-logs') as Persona;
  let sim: Simulator;
  const dirs: string[] = [];
  let signKey = '';
  let publicKey = '';
  // A checkout of the vendor's repository: the public key committed where the workflow's header says.
  const checkout = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'rdx-ci-example-'));
    dirs.push(dir);
    mkdirSync(join(dir, '.github'));
    writeFileSync(join(dir, '.github', 'rdx-signing-key.pem.pub'), publicKey);
    return dir;
  };
  const context = (work: string, ref: string): Context => ({
    work, ref, event: ref === 'refs/heads/main' ? 'push' : 'pull_request',
    vars: { RDX_STAGING_URL: sim.baseUrl },
    secrets: { RDX_CLIENT_ID: 'acme-ci', RDX_CLIENT_SECRET: 'acme-ci-secret-7', RDX_EXPIRED_TOKEN: sim.expiredToken(), RDX_SIGN_KEY: signKey },
  });

  before(async () => {
    // The key pair as the workflow's header makes it: rdx keygen, the private PEM text as the secret RDX_SIGN_KEY.
    const keys = mkdtempSync(join(tmpdir(), 'rdx-ci-keys-'));
    dirs.push(keys);
    const keygen = spawnSync(process.execPath, [cli, 'keygen', '--out', join(keys, 'rdx-signing-key.pem')], { encoding: 'utf8' });
    expect(keygen.status, keygen.stderr).to.equal(0);
    signKey = readFileSync(join(keys, 'rdx-signing-key.pem'), 'utf8');
    publicKey = readFileSync(join(keys, 'rdx-signing-key.pem.pub'), 'utf8');
    sim = await startSimulator({ host: '127.0.0.1', port: 0, clientId: 'acme-ci', clientSecret: 'acme-ci-secret-7', personas: [vendor] });
  });
  after(async () => {
    await sim.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    for (const file of Object.values(ID_LOGS)) if (existsSync(file)) rmSync(file);
  });

  it('the first run, with the profile rdx init writes, fails at "Fail when the run is INCOMPLETE" with the unlock list in the job summary', async () => {
    const work = checkout();
    writeFileSync(join(work, 'rdx.config.yaml'), profileTemplate());
    copyFileSync(join(packageRoot, 'examples', 'job-summary.mjs'), join(work, '.github', 'rdx-job-summary.mjs'));
    const job = await runJob(workflow, context(work, 'refs/pull/1/merge'));
    const run = job.ran.find((s) => s.name === 'Run the conformance suite against staging');
    expect(run?.code, run?.stderr).to.equal(0);
    // The bundle is signed with the secret's key and checks against the committed public key: exit 0, not 5.
    const verify = job.ran.find((s) => s.name === 'Verify the signed bundle');
    expect(verify?.code, verify?.stderr).to.equal(0);
    expect(job.failed).to.equal('Fail when the run is INCOMPLETE');
    expect(job.summary).to.include('### RDX conformance: INCOMPLETE');
    // The unlock list once on the summary page (the job summary's), and in the failing step's log.
    expect(job.summary.split('To complete this certification')).to.have.length(2);
    const incomplete = job.ran.find((s) => s.name === 'Fail when the run is INCOMPLETE');
    for (const key of ['idSources.applicationStep', 'idSources.jobboardJobOffer', 'idSources.atsJobOffer']) {
      expect(job.summary, key).to.include(`\`${key}\``);
      expect(incomplete?.stderr, key).to.include(`**${key}**`);
    }
    if (process.env["RDX_SHOW"]) process.stdout.write(job.summary);
    expect(job.summary).to.not.include('acme-ci-secret-7');
    // A pull request keeps nothing as the last green run.
    expect(existsSync(join(work, 'rdx-last-green'))).to.equal(false);
  });

  it('with the profile of docs/ci.md, a push to main is green: CONFORMANT, summarised, and kept as the last green run', async () => {
    const work = checkout();
    writeFileSync(join(work, 'rdx.config.yaml'), workedProfile());
    copyFileSync(join(packageRoot, 'examples', 'job-summary.mjs'), join(work, '.github', 'rdx-job-summary.mjs'));
    const job = await runJob(workflow, context(work, 'refs/heads/main'));
    expect(job.failed, job.ran.map((s) => `${s.name}: ${s.code}\n${s.stderr.slice(-2000)}`).join('\n')).to.equal(undefined);
    const report = JSON.parse(readFileSync(join(work, 'reports', 'latest', 'report.json'), 'utf8')) as { summary: { verdict: string; unjudgedMust: number } };
    expect(report.summary).to.include({ verdict: 'CONFORMANT', unjudgedMust: 0 });
    expect(job.summary).to.include('RDX conformance: CONFORMANT').and.not.include('INCOMPLETE');
    expect(existsSync(join(work, 'rdx-last-green', 'report.json'))).to.equal(true);
    expect(job.ran.map((s) => s.name)).to.include.members(['Verify the signed bundle', 'Fail when the run is INCOMPLETE', 'Summarise the verdict', 'Keep this run as the last green run of main']);
    expect(job.ran.find((s) => s.name === 'Verify the signed bundle')?.stderr).to.not.include('integrity only');
  });
});
