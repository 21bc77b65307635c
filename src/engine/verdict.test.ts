import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { defaults, type Profile } from '../config/profile.js';
import { EXIT, UsageError } from '../errors.js';
import { errorReply } from '../../simulator/envelope.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { personaByName, type Persona } from '../../simulator/personas/index.js';
import { JOB_OFFER_ID_LOG } from '../../simulator/personas/variants/numeric-ids-with-id-log.js';
import { listenOnLoopback } from '../../test/support/loopback.js';
import { mergeReports } from '../reporters/merge.js';
import { junitXml } from '../reporters/junit.js';
import { writeBaseline } from './baseline.js';
import { IdSourceSet, idSourceProblem } from './id-sources.js';
import { exitCodeOf, runConformance, summarise, type RunOptions, type RunReport } from './run.js';
import type { CaseResult } from '../core/results.js';
import { embeddedSimulator } from '../compose.js';
import { SELFCHECK_EXPLORE_BUDGET } from '../selfcheck/index.js';

/** Every job offer create refused: the prerequisite of every {id} case fails. */
const refusesJobOffers: Persona = {
  name: 'refuses-job-offers',
  kind: 'fault',
  description: 'Refuses every job offer create.',
  hooks: {
    beforeHandler(ctx) {
      if (ctx.operation?.operationId === 'batchCreateJobOffers') return errorReply('validation', 'No job offers today.');
    },
  },
};

/**
 * These runs are about verdicts, not about what exploration finds: their explore cases run (and are judged, so no
 * verdict changes) at the self-check's small budget. The first test runs at the default one, as `npm start` does.
 */
const verdictProfile = (extra: Partial<Profile> = {}): Profile => ({ ...defaults(), explore: { ...SELFCHECK_EXPLORE_BUDGET }, ...extra });

const embedded = (options: Omit<Partial<RunOptions>, 'profile'> & { personas?: Persona[]; profile?: Partial<Profile> } = {}) => {
  const { personas, profile, ...rest } = options;
  return runConformance({ reporter: 'none', ...rest, profile: verdictProfile(profile), simulator: embeddedSimulator(personas ? { personas } : {}) });
};

const byId = (report: RunReport, id: string): CaseResult => {
  const found = report.cases.find((c) => c.id === id);
  if (!found) throw new Error(`no case ${id} in the report`);
  return found;
};

const skips = (report: RunReport): string[] => report.cases.filter((c) => c.verdict === 'skip').map((c) => `${c.id}: ${c.reason}`);

describe('run verdicts', function () {
  // A full run against the embedded simulator takes a few seconds on a busy machine.
  this.timeout(120_000);

  it('judges the embedded simulator completely: no skip, CONFORMANT, exit 0 (npm start), and leaves the caller\'s profile as it was', async () => {
    const profile = defaults();
    const before = structuredClone(profile);
    const { report, exitCode, profile: used } = await runConformance({ reporter: 'none', profile, simulator: embeddedSimulator() });
    // The embedded target's fixtures and the irreversible tier went into a profile of the run's own.
    expect(profile).to.deep.equal(before);
    expect(used).to.not.equal(profile);
    expect(used.allowIrreversible).to.equal(true);
    expect(used.fixtures.expiredToken).to.be.a('string');
    expect(profile.fixtures.expiredToken).to.equal(undefined);
    expect(skips(report)).to.deep.equal([]);
    expect(report.summary).to.include({ verdict: 'CONFORMANT', conformant: true, unjudgedMust: 0, failOn: 'must' });
    expect(report.summary.toComplete).to.deep.equal([]);
    expect(byId(report, 'users.replace').verdict).to.equal('pass');
    expect(byId(report, 'job-offers.read-fixture').verdict).to.equal('pass');
    expect(exitCode).to.equal(EXIT.OK);
  });

  it('fails a case whose setup step breaks a MUST clause (a documented optional field refused), instead of skipping it', async () => {
    const { report, exitCode } = await embedded({ personas: [personaByName('optional-field-refused') as Persona] });
    expect(report.summary.verdict).to.equal('NOT_CONFORMANT');
    expect(exitCode).to.equal(EXIT.MUST_FAILED);
    // Cases that create a job offer with reference_3 in a setup step fail there, under the clause the create broke.
    const setupFailures = report.cases.filter((c) => c.verdict === 'fail' && c.assertions.some((a) => !a.passed && /^setup step /.test(a.message)));
    expect(setupFailures.length).to.be.greaterThan(0);
    for (const c of setupFailures) {
      const failed = c.assertions.filter((a) => !a.passed);
      expect(failed.map((a) => `${a.level} ${a.clause}`), c.id).to.deep.equal(['MUST BATCH.ACCEPTS_ARRAY']);
      expect(failed[0]?.message).to.match(/^setup step "[^"]+": expected success, got status 4\d\d/);
    }
    // Nothing hides as a skip: every skipped case names the failed case it waits for (at the end of a chain of
    // prerequisites, when it waits for one that waits for it).
    for (const c of report.cases.filter((x) => x.verdict === 'skip')) {
      const cause = /^not run because (?:\S+ was skipped: not run because )*(\S+) failed$/.exec(c.reason ?? '')?.[1];
      expect(cause, `${c.id}: ${c.reason}`).to.be.a('string');
      expect(byId(report, cause as string).verdict).to.equal('fail');
    }
  });

  it('reports a failed prerequisite once: the dependents are skipped "not run because <case> failed"', async () => {
    const { report } = await embedded({ personas: [refusesJobOffers] });
    const root = byId(report, 'job-offers.id-is-reference');
    expect(root.verdict).to.equal('fail');
    expect(root.assertions.filter((a) => !a.passed).map((a) => a.clause)).to.deep.equal(['BATCH.ACCEPTS_ARRAY']);
    const dependents = report.cases.filter((c) => c.verdict === 'skip' && c.reason?.startsWith('not run because job-offers.id-is-reference'));
    expect(dependents.length).to.be.greaterThan(10);
    for (const d of dependents) {
      expect(d.reason).to.equal('not run because job-offers.id-is-reference failed');
      expect(d.assertions).to.deep.equal([]);
    }
    expect(report.summary.verdict).to.equal('NOT_CONFORMANT');
    expect(report.summary.toComplete.find((t) => t.unlock === 'fix job-offers.id-is-reference')?.cases.length)
      .to.equal(dependents.filter((d) => d.level === 'MUST').length);
  });

  describe('against a simulator given as a base URL', () => {
    let sim: Simulator;
    const remote = (extra: Partial<Profile> = {}): Profile => verdictProfile({
      baseUrl: sim.baseUrl, clientId: 'rdx-verdicts', clientSecret: 'verdicts-secret-1', ...extra,
    });

    before(async () => {
      sim = await startSimulator({ host: '127.0.0.1', port: 0, clientId: 'rdx-verdicts', clientSecret: 'verdicts-secret-1' });
    });
    after(async () => sim.close());

    it('is INCOMPLETE (exit 4, 0 with --allow-incomplete) and says what unlocks each unjudged MUST case', async () => {
      const profile = remote({ fixtures: { expiredToken: sim.expiredToken() } });
      const { report, exitCode } = await runConformance({ profile, reporter: 'none' });
      expect(report.summary).to.include({ verdict: 'INCOMPLETE', conformant: false, mustFailures: 0 });
      expect(exitCode).to.equal(EXIT.INCOMPLETE);
      expect(exitCodeOf(report.summary, true)).to.equal(EXIT.OK);
      const unlocks = Object.fromEntries(report.summary.toComplete.map((t) => [t.unlock, t.cases]));
      const irreversible = ['users.replace', 'users.put-twice', 'users.bearer-missing', 'users.bearer-wrong.wrong-scheme', 'users.bearer-wrong.garbage-token'];
      expect(unlocks).to.deep.equal({ '--allow-irreversible': irreversible, 'fixtures.atsJobOfferIds': ['job-offers.read-fixture'] });
      expect(report.summary.unjudgedMust).to.equal(6);
      const xml = junitXml(report);
      expect(xml).to.include('<property name="verdict" value="INCOMPLETE"/>');
      expect(xml).to.match(/<failure type="INCOMPLETE" message="6 MUST case\(s\) not judged/);
    });

    it('is complete and CONFORMANT once the profile gives the fixture and allows the irreversible tier', async () => {
      const profile = remote({ fixtures: { expiredToken: sim.expiredToken(), atsJobOfferIds: sim.atsJobOfferFixtureIds() }, allowIrreversible: true });
      const { report, exitCode } = await runConformance({ profile, reporter: 'none' });
      expect(skips(report)).to.deep.equal([]);
      expect(report.summary.verdict).to.equal('CONFORMANT');
      expect(exitCode).to.equal(EXIT.OK);
    });
  });

  it('counts the MUST cases that filters left out as unjudged', async () => {
    const { report, exitCode } = await embedded({ filters: { tags: ['auth'] } });
    expect(report.summary.verdict).to.equal('INCOMPLETE');
    expect(exitCode).to.equal(EXIT.INCOMPLETE);
    const [entry] = report.summary.toComplete;
    expect(entry?.unlock).to.equal('without filters');
    expect(entry?.cases).to.include('job-offers.create-read-replace-patch');
  });

  it('--fail-on should turns a SHOULD warning into NOT_CONFORMANT and records it', async () => {
    const persona = personaByName('no-www-authenticate') as Persona;
    const lenient = await embedded({ personas: [persona] });
    expect(lenient.report.summary.shouldWarnings).to.be.greaterThan(0);
    expect(lenient.report.summary).to.include({ verdict: 'CONFORMANT', failOn: 'must' });
    expect(lenient.exitCode).to.equal(EXIT.OK);
    const strict = await embedded({ personas: [persona], failOn: 'should' });
    expect(strict.report.summary).to.include({ verdict: 'NOT_CONFORMANT', failOn: 'should', conformant: false });
    expect(strict.exitCode).to.equal(EXIT.MUST_FAILED);
    expect(strict.report.run.options['failOn']).to.equal('should');
  });

  describe('baselines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rdx-verdicts-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('turn known MUST failures into KNOWN_FAILURES, never conformant: true, exit 0; a TODO reason is an error naming file and entry', async () => {
      const persona = personaByName('users-flat-data') as Persona;
      const failing = await embedded({ personas: [persona] });
      expect(failing.report.summary.verdict).to.equal('NOT_CONFORMANT');
      const file = join(dir, 'baseline.yaml');
      writeBaseline(file, failing.report.cases);
      expect(readFileSync(file, 'utf8')).to.include('TODO');
      const todo = await embedded({ personas: [persona], baseline: file }).then(() => undefined, (e: unknown) => e);
      expect(todo).to.be.instanceOf(UsageError);
      expect((todo as Error).message).to.include(file).and.match(/knownFailures\[0\]\.reason \([a-z.-]+\): still the generated placeholder/);

      const doc = parseYaml(readFileSync(file, 'utf8')) as { knownFailures: { reason: string }[] };
      for (const entry of doc.knownFailures) entry.reason = 'vendor ticket 42: users come back flat, fix due in March';
      writeFileSync(file, stringifyYaml(doc));
      const known = await embedded({ personas: [persona], baseline: file });
      expect(known.report.summary).to.include({ verdict: 'KNOWN_FAILURES', conformant: false, mustFailures: 0 });
      expect(known.report.summary.knownFailures).to.be.greaterThan(0);
      expect(known.exitCode).to.equal(EXIT.OK);
    });
  });

  it('a merge of shards 1/3 and 2/3 is INCOMPLETE and names shard 3/3', async () => {
    const shard = async (index: number): Promise<RunReport> => (await embedded({ filters: { shard: { index, count: 3 } } })).report;
    const one = await shard(1);
    const two = await shard(2);
    expect(one.summary.verdict).to.equal('INCOMPLETE');
    const merged = mergeReports([{ file: 'one.json', report: one }, { file: 'two.json', report: two }]);
    expect(merged.summary.verdict).to.equal('INCOMPLETE');
    expect(merged.missingShards).to.deep.equal(['3/3']);
    expect(merged.summary.toComplete.map((t) => t.unlock)).to.deep.equal(['--shard 3/3']);
    const three = await shard(3);
    const whole = mergeReports([{ file: 'one.json', report: one }, { file: 'two.json', report: two }, { file: 'three.json', report: three }]);
    expect(whole.summary.verdict).to.equal('CONFORMANT');
    expect(whole.missingShards).to.equal(undefined);
  });

  describe('ATS job offer ids that are never shown (atsJobOfferIdSource)', () => {
    const idLog = personaByName('numeric-ids-with-id-log') as Persona;
    after(() => {
      if (existsSync(JOB_OFFER_ID_LOG)) rmSync(JOB_OFFER_ID_LOG);
    });

    it('without a source, the {id} cases are unjudged and idSources.atsJobOffer is what unlocks them', async () => {
      const { report } = await embedded({ personas: [idLog], profile: { declared: { atsJobOfferId: 'fixtures' } } });
      expect(report.summary.verdict).to.equal('INCOMPLETE');
      const entry = report.summary.toComplete.find((t) => t.unlock === 'idSources.atsJobOffer');
      expect(entry?.cases).to.include('job-offers.create-read-replace-patch');
      expect(report.summary.toComplete.map((t) => t.unlock)).to.deep.equal(['idSources.atsJobOffer']);
    });

    it('with the id log, the whole suite runs: complete and CONFORMANT', async () => {
      const { report } = await embedded({ personas: [idLog], profile: { declared: { atsJobOfferId: 'fixtures' }, atsJobOfferIdSource: { file: JOB_OFFER_ID_LOG } } });
      expect(skips(report)).to.deep.equal([]);
      expect(report.summary).to.include({ verdict: 'CONFORMANT', unjudgedMust: 0 });
      expect(report.cases.filter((c) => c.verdict === 'warn')).to.deep.equal([]);
    });

    it('with a command printing the id, the {id} cases run too', async () => {
      const script = `const r = process.env.RDX_REFERENCE; for (const l of require('fs').readFileSync(${JSON.stringify(JOB_OFFER_ID_LOG)}, 'utf8').split('\\n')) { if (l && JSON.parse(l).reference === r) console.log(JSON.parse(l).id); }`;
      const { report } = await embedded({
        personas: [idLog], filters: { grep: '^job-offers\\.(id-is-reference|create-read-replace-patch) ' },
        profile: { declared: { atsJobOfferId: 'fixtures' }, atsJobOfferIdSource: { command: `node -e ${JSON.stringify(script)} -- {reference}` } },
      });
      expect(byId(report, 'job-offers.create-read-replace-patch').verdict).to.equal('pass');
    });

    it('a declared atsJobOfferId the implementation does not honour is a PROFILE.DECLARED_MATCHES failure', async () => {
      const { report } = await embedded({ personas: [idLog], profile: { declared: { atsJobOfferId: 'reference' } }, filters: { grep: '^job-offers\\.id-is-reference ' } });
      const c = byId(report, 'job-offers.id-is-reference');
      const failed = c.assertions.filter((a) => !a.passed);
      expect(failed.map((a) => a.clause)).to.deep.equal(['PROFILE.DECLARED_MATCHES']);
      expect(failed[0]?.message).to.include('declares "reference" but the implementation did "fixtures"');
      const honest = await embedded({ filters: { grep: '^job-offers\\.id-is-reference ' }, profile: { declared: { atsJobOfferId: 'fixtures' } } });
      expect(byId(honest.report, 'job-offers.id-is-reference').assertions.filter((a) => !a.passed).map((a) => a.clause)).to.deep.equal(['PROFILE.DECLARED_MATCHES']);
    });

    it('a lookup URL must share the base URL\'s origin (the token never goes elsewhere), and is asked with the token', async () => {
      expect(idSourceProblem({ url: 'https://other.example/ids?ref={reference}' }, 'https://api.example/v1')).to.match(/origin https:\/\/other\.example is not the base URL's/);
      expect(idSourceProblem({ url: 'https://api.example/ids?ref={reference}' }, 'https://api.example/v1')).to.equal(undefined);
      expect(idSourceProblem({ command: 'x', file: 'y' }, undefined)).to.match(/exactly one of/);
      // A lookup must name the whole record: an application step by its application_ats_id, step and recorded_at.
      expect(idSourceProblem({ url: 'https://api.example/ids?a={application_ats_id}' }, 'https://api.example/v1', 'application-step')).to.match(/has no \{step\}, \{recorded_at\}/);
      const refused = await embedded({ profile: { atsJobOfferIdSource: { url: 'http://192.0.2.1/ids/{reference}' } } }).then(() => undefined, (e: unknown) => e);
      expect(refused).to.be.instanceOf(UsageError);

      const seen: (string | undefined)[] = [];
      const lookup = await listenOnLoopback(createServer((req, res) => {
        req.resume();
        if (req.url === '/oauth2/token') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'tok-1', expires_in: 3600 }));
        seen.push(req.headers.authorization);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 4711 }] }));
      }));
      try {
        const { HttpClient } = await import('../http/client.js');
        const http = new HttpClient({ timeoutMs: 2000, maxResponseBytes: 1 << 20, retries: 0, insecure: false, origins: [lookup.url] });
        const { TokenProvider } = await import('../http/auth.js');
        const { Secrets } = await import('../http/redact.js');
        const tokens = new TokenProvider(http, `${lookup.url}/oauth2/token`, { clientId: 'id', clientSecret: 'secret', grantType: null }, new Secrets());
        const ids = new IdSourceSet({ 'job-offer': { url: `${lookup.url}/ids?reference={reference}` } }, { baseUrl: `${lookup.url}/api`, tokens });
        expect(await ids.learn('job-offer', { reference: 'R 1' })).to.deep.equal({ id: '4711' });
        expect(ids.get('job-offer', { reference: 'R 1' })).to.equal('4711');
        expect(seen).to.deep.equal(['Bearer tok-1']);
        await http.close();
      } finally {
        await lookup.close();
      }
    });
  });

  it('summarise: a failure outweighs a gap, a gap outweighs an excused failure', () => {
    const base: CaseResult = {
      id: 'a', title: 't', level: 'MUST', clauses: [], endpoints: [], tags: [], tier: 'read-only', file: 'f:1',
      verdict: 'pass', assertions: [], observations: [], exchanges: [], durationMs: 0,
    };
    const skip: CaseResult = { ...base, id: 'b', verdict: 'skip', reason: 'not run (deadline)' };
    const known: CaseResult = { ...base, id: 'c', verdict: 'fail', baseline: { reason: 'ticket 1' } };
    const failed: CaseResult = { ...base, id: 'd', verdict: 'fail' };
    expect(summarise([base]).verdict).to.equal('CONFORMANT');
    expect(summarise([base, known]).verdict).to.equal('KNOWN_FAILURES');
    expect(summarise([base, known, skip]).verdict).to.equal('INCOMPLETE');
    expect(summarise([base, known, skip]).toComplete).to.deep.equal([{ unlock: '--deadline', how: 'give the run more time (a longer --deadline), or run the missing cases alone and merge the reports', cases: ['b'] }]);
    expect(summarise([base, known, skip, failed]).verdict).to.equal('NOT_CONFORMANT');
    // A SHOULD case is not a gap in the certification.
    expect(summarise([base, { ...skip, level: 'SHOULD' }]).verdict).to.equal('CONFORMANT');
  });
});
