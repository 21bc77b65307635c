import { expect } from 'chai';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { defaults, type IdSource, type Profile } from '../config/profile.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { personaByName, type Persona } from '../../simulator/personas/index.js';
import { ID_LOGS } from '../../simulator/personas/variants/message-only-with-id-logs.js';
import { runConformance, type RunReport } from './run.js';
import { embeddedSimulator } from '../compose.js';
import { IdSourceSet, keyFields } from './id-sources.js';
import { resourceInfo } from '../spec/index.js';
import { runSimulate } from '../../test/support/simulator.js';

const messageOnly = personaByName('message-only-batch') as Persona;
const withIdLogs = personaByName('message-only-with-id-logs') as Persona;

const skips = (report: RunReport): string[] => report.cases.filter((c) => c.verdict === 'skip').map((c) => `${c.id}: ${c.reason}`);
const unlocks = (report: RunReport): string[] => report.summary.toComplete.map((t) => t.unlock);

describe('id sources for every resource a run creates (idSources)', function () {
  this.timeout(120_000);
  after(() => {
    for (const file of Object.values(ID_LOGS)) if (existsSync(file)) rmSync(file);
  });

  const embedded = (personas: Persona[], profile: Partial<Profile>, grep?: string) => runConformance({
    reporter: 'none', profile: { ...defaults(), allowIrreversible: true, ...profile }, simulator: embeddedSimulator({ personas }),
    ...(grep ? { filters: { grep } } : {}),
  });

  it('keys a record by what names it in the request, read from spec/schemas (x-rdx-id-key, else x-rdx-identity)', () => {
    expect(keyFields('job-offer')).to.deep.equal(['reference']);
    expect(keyFields('application-step')).to.deep.equal(['application_ats_id', 'step', 'recorded_at']);
    expect(keyFields('jobboard-activity')).to.deep.equal(['job_offer_reference', 'status', 'recorded_at']);
    expect(keyFields('jobboard-job-offer')).to.deep.equal(['reference']);
    expect(keyFields('application-step')[0]).to.equal(resourceInfo('application-step').identity);
  });

  it('an implementation answering {message} only, with an id log per resource, gets a complete CONFORMANT run', async () => {
    const { report } = await embedded([withIdLogs], { declared: withIdLogs.declared ?? {}, ...withIdLogs.profile });
    expect(skips(report)).to.deep.equal([]);
    expect(report.summary).to.include({ verdict: 'CONFORMANT', unjudgedMust: 0, mustFailures: 0 });
  });

  it('without id sources, each resource whose id no answer shows names its own id source as what unlocks its cases', async () => {
    const { report } = await embedded([withIdLogs], { declared: withIdLogs.declared ?? {} });
    expect(report.summary.verdict).to.equal('INCOMPLETE');
    // Activities are found by listing them (GET /jobboard/activities filtered by the key): they need no source.
    expect(unlocks(report).sort()).to.deep.equal(['idSources.applicationStep', 'idSources.atsJobOffer', 'idSources.jobboardJobOffer']);
    const step = report.summary.toComplete.find((t) => t.unlock === 'idSources.applicationStep');
    expect(step?.how).to.include('idSources.applicationStep.command, .file or .url');
    expect(step?.cases).to.include('application-steps.create-read-replace-patch');
  });

  it('asks the activity id source when the listing does not single the record out', async () => {
    // Lists activities without their ids (a fault of its own): only the id source can tell a created activity's id.
    const hidesListedIds: Persona = {
      name: 'hides-listed-activity-ids', kind: 'fault', description: 'test only', hooks: {
        afterHandler(ctx, res) {
          const data = res.body['data'];
          if (ctx.operation?.operationId === 'listJobboardActivities' && Array.isArray(data)) {
            res.body = { ...res.body, data: data.map((r) => Object.fromEntries(Object.entries(r as object).filter(([k]) => k !== 'id'))) };
          }
        },
      },
    };
    const grep = '^activities\\.optional-fields ';
    const caseOf = (report: RunReport) => report.cases.find((c) => c.id === 'activities.optional-fields');
    const without = await embedded([withIdLogs, hidesListedIds], { declared: withIdLogs.declared ?? {} }, grep);
    expect(caseOf(without.report)?.verdict).to.equal('skip');
    expect(caseOf(without.report)?.unlock?.unlock).to.equal('idSources.jobboardActivity');
    expect(caseOf(without.report)?.reason).to.match(/GET \/jobboard\/activities filtered by job_offer_reference and status listed no record with its id/);
    const withSource = await embedded([withIdLogs, hidesListedIds],
      { declared: withIdLogs.declared ?? {}, idSources: { jobboardActivity: { file: ID_LOGS.jobboardActivity } } }, grep);
    expect(caseOf(withSource.report)?.verdict).to.not.equal('skip');
    expect(caseOf(withSource.report)?.exchanges.map((e) => e.request.method)).to.include('PUT');
  });

  describe('a broken id source says what broke, in the case and in the unlock list', () => {
    let sim: Simulator;
    const dir = mkdtempSync(join(tmpdir(), 'rdx-id-sources-'));
    const grep = '^application-steps\\.put-clears-omitted ';
    const secret = 'id-sources-secret-42';
    before(async () => {
      sim = await startSimulator({ host: '127.0.0.1', port: 0, clientId: 'rdx-ids', clientSecret: secret, personas: [messageOnly] });
    });
    after(async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const run = async (applicationStep: IdSource) => {
      const { report } = await runConformance({
        reporter: 'none', filters: { grep },
        profile: { ...defaults(), baseUrl: sim.baseUrl, clientId: 'rdx-ids', clientSecret: secret, idSources: { applicationStep } },
      });
      const c = report.cases.find((x) => x.id === 'application-steps.put-clears-omitted');
      const entry = report.summary.toComplete.find((t) => t.unlock === 'idSources.applicationStep');
      return { verdict: c?.verdict, reason: c?.reason ?? '', how: entry?.how ?? '', all: JSON.stringify(report) };
    };
    const GENERIC = 'tell the harness how to learn';

    it('a missing id log: the file does not exist', async () => {
      const file = join(dir, 'nowhere.jsonl');
      const r = await run({ file });
      expect(r.verdict).to.equal('skip');
      expect(r.reason).to.equal(`idSources.applicationStep.file ${file} does not exist`);
      expect(r.how).to.include(`${file} does not exist`).and.not.include(GENERIC);
    });

    it('a log without the record: no line for its key after the wait', async () => {
      const file = join(dir, 'empty.jsonl');
      writeFileSync(file, '{"application_ats_id": "someone-else", "step": "x", "recorded_at": "2026-01-01", "id": 9}\n');
      const r = await run({ file });
      expect(r.verdict).to.equal('skip');
      expect(r.reason).to.match(new RegExp(`^idSources\\.applicationStep\\.file ${file} has no line for application_ats_id \\S+, step \\S+, recorded_at \\S+ after 3000 ms$`));
      expect(r.how).to.include('has no line for').and.include('the implementation must append a line {"application_ats_id": …, "step": …, "recorded_at": …, "id": …}');
    });

    it('a failing command: its exit code and its stderr, secrets masked', async () => {
      // The command runs with the harness's environment, where the client secret may be: what it prints is masked.
      process.env['RDX_ID_TEST_SECRET'] = secret;
      const r = await run({ command: 'echo "lookup failed for {application_ats_id} with $RDX_ID_TEST_SECRET" >&2; exit 3' }).finally(() => {
        delete process.env['RDX_ID_TEST_SECRET'];
      });
      expect(r.verdict).to.equal('skip');
      expect(r.reason).to.match(/^idSources\.applicationStep\.command exited with code 3 for application_ats_id \S+, step \S+, recorded_at \S+; its stderr: lookup failed for \S+ with \*\*\*$/);
      expect(r.how).to.include('exited with code 3').and.not.include(GENERIC);
      expect(r.all).to.not.include(secret);
    }).timeout(120_000);

    it('a lookup URL: the status it answered', async () => {
      const r = await run({ url: `${sim.baseUrl}/no-such-lookup?a={application_ats_id}&s={step}&at={recorded_at}` });
      expect(r.verdict).to.equal('skip');
      expect(r.reason).to.match(/^idSources\.applicationStep\.url answered status 404 for application_ats_id /);
      expect(r.how).to.include('answered status 404').and.not.include(GENERIC);
    });
  });
});

describe('an id log of hundreds of MB (issue 36)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-big-log-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is read in chunks from its tail, a line longer than a chunk passed over, and still gives the run\'s ids', async () => {
    const file = join(dir, 'steps.jsonl');
    // 40 MiB of other records' lines, one line of 5 MiB, then the lines of the run's records (appended last).
    const other = `${JSON.stringify({ application_ats_id: 'someone-else', step: 'x', recorded_at: '2026-01-01', id: 1 })}\n`;
    writeFileSync(file, other.repeat(Math.ceil((40 * 2 ** 20) / other.length)));
    appendFileSync(file, `${JSON.stringify({ application_ats_id: 'huge', note: 'y'.repeat(5 * 2 ** 20), id: 2 })}\n`);
    const ours = (n: number): string => JSON.stringify({ application_ats_id: `app-${n}`, step: 'hired', recorded_at: '2026-11-27', id: 1000 + n });
    appendFileSync(file, `${[1, 2, 3].map(ours).join('\n')}\n`);
    const ids = new IdSourceSet({ 'application-step': { file } }, { baseUrl: 'http://127.0.0.1:9', tokens: { send: () => Promise.reject(new Error('a file source sends nothing')) } });
    for (const n of [3, 1, 2]) {
      expect(await ids.learn('application-step', { application_ats_id: `app-${n}`, step: 'hired', recorded_at: '2026-11-27' })).to.deep.equal({ id: String(1000 + n) });
    }
  });
});

describe('the simulator\'s id logs across a restart (issue 40 §3)', function () {
  this.timeout(180_000);
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-id-log-dir-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The id logs the start-up banner names, by their profile key. */
  const bannerLogs = (out: string): Record<string, { file: string }> =>
    Object.fromEntries([...out.matchAll(/(\S+) \(idSources\.(\w+)\.file\)/g)].map((m) => [m[2] as string, { file: m[1] as string }]));

  it('keeps their names, printed at start-up, so the same profile gives a complete run after the simulator restarts', async () => {
    const args = ['--host', '127.0.0.1', '--port', '0', '--variant', 'message-only-with-id-logs'];
    let profile: Partial<Profile> | undefined;
    const seen: Record<string, { file: string }>[] = [];
    const runs: { verdict: string; skipped: string[]; seconds: number }[] = [];
    for (let start = 0; start < 2; start += 1) {
      const result = await runSimulate(args, { RDX_SIM_ID_LOG_DIR: dir }, async (out) => {
        const baseUrl = /listening on (\S+)/.exec(out)?.[1] ?? '';
        seen.push(bannerLogs(out));
        // Written once, from the first start's banner, as a vendor would: the second run reads the same file.
        if (!profile) {
          const expired = await fetch(`${baseUrl}/__admin/expired-token`, { method: 'POST', headers: { 'x-rdx-admin': '1' } });
          const token = ((await expired.json()) as { data?: { access_token?: string }[] }).data?.[0]?.access_token;
          profile = {
            declared: withIdLogs.declared ?? {}, idSources: bannerLogs(out), fixtures: { ...(token ? { expiredToken: token } : {}), atsJobOfferIds: ['1'] },
            clientId: 'rdx-client', clientSecret: 'rdx-secret',
          };
        }
        const began = Date.now();
        const { report } = await runConformance({ reporter: 'none', profile: { ...defaults(), allowIrreversible: true, ...profile, baseUrl } });
        runs.push({ verdict: report.summary.verdict, skipped: skips(report), seconds: (Date.now() - began) / 1000 });
      }, 150_000);
      expect(result.code, result.out).to.equal(0);
    }
    console.log(`      runs: ${runs.map((r) => `${r.verdict} in ${r.seconds.toFixed(1)} s`).join(', then after the restart ')}`);
    const files = Object.values(seen[0] ?? {}).map((s) => s.file);
    expect(files.map((f) => basename(f)).sort()).to.deep.equal(['application-step', 'ats-job-offer', 'jobboard-activity', 'jobboard-job-offer'].map((n) => `rdx-simulator-${n}-ids.jsonl`));
    expect(files.every((f) => dirname(f) === dir)).to.equal(true);
    expect(seen[1]).to.deep.equal(seen[0]);
    for (const run of runs) {
      expect(run.skipped).to.deep.equal([]);
      expect(run.verdict).to.equal('CONFORMANT');
    }
  });
});
