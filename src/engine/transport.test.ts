// Whole runs against a rate-limited simulator, and the form-encoded token request with a secret that needs encoding.
import { expect } from 'chai';
import { defaults, type Profile } from '../config/profile.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { personaByName, type Persona } from '../../simulator/personas/index.js';
import { runConformance } from './run.js';
import { ThrottledAnswers } from './throttled.js';
import type { Exchange } from '../core/results.js';

const SECRET = 'p&ss +w0rd=1%';

const remote = (sim: Simulator, extra: Partial<Profile> = {}): Profile => ({
  ...defaults(), baseUrl: sim.baseUrl, clientId: 'rdx-transport', clientSecret: SECRET, allowIrreversible: true, ...extra,
});

async function simulator(options: { rateLimit?: string; persona?: string } = {}): Promise<Simulator> {
  const persona = options.persona ? personaByName(options.persona) : undefined;
  return startSimulator({
    host: '127.0.0.1', port: 0, clientId: 'rdx-transport', clientSecret: SECRET,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}), ...(persona ? { personas: [persona as Persona] } : {}),
  });
}

describe('runs against rate-limited targets', function () {
  this.timeout(60_000);

  it('sends the form-encoded token request with the client secret encoded, and masks it in every form', async () => {
    const sim = await simulator();
    try {
      const { report } = await runConformance({ profile: remote(sim), reporter: 'none', filters: { grep: '^token\\.form-encoding ' } });
      const [result] = report.cases;
      // The simulator reads both encodings: a secret sent unencoded (& splits it) would be refused.
      expect(result?.observations.map((o) => [o.key, o.value])).to.deep.equal([['formStatus', 200]]);
      const text = JSON.stringify(report);
      for (const form of [SECRET, encodeURIComponent(SECRET), new URLSearchParams({ s: SECRET }).toString().slice(2)]) {
        expect(text).to.not.include(form);
      }
    } finally {
      await sim.close();
    }
  });

  it('waits out the 429s of a per-token rate limit: every case judged as without it, and the throttling in the report', async () => {
    const sim = await simulator({ rateLimit: '100/5' });
    try {
      const filters = { grep: '^job-offers\\.' };
      const { report } = await runConformance({ profile: remote(sim, { fixtures: { expiredToken: sim.expiredToken() } }), reporter: 'none', filters });
      expect(report.cases.filter((c) => c.verdict === 'fail' || c.verdict === 'error').map((c) => `${c.id}: ${c.reason ?? c.assertions.find((a) => !a.passed)?.message}`)).to.deep.equal([]);
      const throttled = Object.values(report.transport?.throttled ?? {}).reduce((a, b) => a + b, 0);
      expect(throttled).to.be.above(0);
      expect(report.transport?.waitedMs).to.be.above(0);
      // Each endpoint's throttled answers are judged, once: the error body passes.
      const judged = report.cases.flatMap((c) => c.assertions.filter((a) => /^throttled answer/.test(a.message)));
      expect(judged.length).to.be.above(0);
      expect(judged.every((a) => a.passed)).to.equal(true);
      // Side by side (concurrency 8), each case records the throttled answers of its own requests only: the request
      // a 429 answered is sent again, so the same method and URL follow it in the case (or it was a token request).
      const mark = ' (throttled, sent again)';
      const foreign = report.cases.flatMap((c) => c.exchanges.flatMap((ex, i) => {
        if (!ex.step.endsWith(mark)) return [];
        const same = (other: Exchange): boolean =>
          !other.step.endsWith(mark) && other.request.method === ex.request.method && other.request.url === ex.request.url;
        return c.exchanges.slice(i + 1).some(same) || ex.request.url.endsWith('/oauth2/token') ? [] : [`${c.id}: ${ex.request.method} ${ex.request.url}`];
      }));
      expect(report.cases.some((c) => c.exchanges.some((ex) => ex.step.endsWith(mark))), 'throttled answers recorded in cases').to.equal(true);
      expect(foreign, 'throttled answers recorded in a case that did not send their request').to.deep.equal([]);
    } finally {
      await sim.close();
    }
  });

  it('runs the cases that require one which failed only on a throttled answer it met (a 429 is no failure of what it establishes)', async () => {
    // One at a time and a burst of one: the prerequisite's second request meets the first 429 of its endpoint, so the
    // failing throttled answer is in its verdict; the case that requires it must still run and be judged.
    const sim = await simulator({ persona: 'plain-text-429', rateLimit: '4/1' });
    try {
      const filters = { grep: '^job-offers\\.(id-is-reference|put-clears-omitted) ' };
      const { report } = await runConformance({ profile: remote(sim), reporter: 'none', filters, concurrency: 1 });
      const [prerequisite, dependent] = ['job-offers.id-is-reference', 'job-offers.put-clears-omitted'].map((id) => report.cases.find((c) => c.id === id));
      const throttledFailures = prerequisite?.assertions.filter((a) => !a.passed && /^throttled answer/.test(a.message)) ?? [];
      expect(prerequisite?.verdict, 'the throttled answer is in the prerequisite\'s verdict').to.equal('fail');
      expect(throttledFailures.map((a) => a.clause)).to.include('ENVELOPE.ERROR_BODY');
      expect(prerequisite?.assertions.filter((a) => !a.passed).length, 'its only failures are on throttled answers').to.equal(throttledFailures.length);
      // suites/ats/job-offers.yaml: put-clears-omitted requires id-is-reference.
      expect(dependent?.verdict, dependent?.reason).to.not.equal('skip');
    } finally {
      await sim.close();
    }
  });

  it('fails a plain-text 429 under MUST ENVELOPE.ERROR_BODY, and the run is NOT CONFORMANT', async () => {
    const sim = await simulator({ persona: 'plain-text-429', rateLimit: '20/2' });
    try {
      const { report } = await runConformance({ profile: remote(sim), reporter: 'none', filters: { grep: '^job-offers\\.' } });
      const failed = report.cases.filter((c) => c.verdict === 'fail')
        .flatMap((c) => c.assertions.filter((a) => !a.passed && /^throttled answer/.test(a.message)));
      expect(failed.length).to.be.above(0);
      expect(failed.every((a) => a.clause === 'ENVELOPE.ERROR_BODY' && a.level === 'MUST' && /not a JSON object/.test(a.message))).to.equal(true);
      // Never more failures than throttled answers, and a case reports an endpoint's once. Cases side by side may
      // each report the same endpoint (so that none is lost if one goes unjudged; the tests below): how many do
      // depends on the schedule, so the run is held to what no schedule changes.
      const throttledAnswers = Object.values(report.transport?.throttled ?? {}).reduce((a, b) => a + b, 0);
      expect(failed.length).to.be.at.most(throttledAnswers);
      const twice = report.cases.flatMap((c) => {
        const endpoints = c.assertions.filter((a) => !a.passed && /^throttled answer/.test(a.message)).map((a) => {
          const ex = c.exchanges[a.exchange ?? -1];
          return ex ? `${ex.request.method} ${new URL(ex.request.url).pathname}` : '';
        });
        return endpoints.filter((e, i) => e !== '' && endpoints.indexOf(e) !== i).map((e) => `${c.id}: ${e}`);
      });
      expect(twice, 'an endpoint reported twice in one case').to.deep.equal([]);
      expect(report.summary.verdict).to.equal('NOT_CONFORMANT');
    } finally {
      await sim.close();
    }
  });
});

describe('throttled answers judged once per endpoint', () => {
  const answer = (path: string, body: string, status = 429): { endpoint: string | undefined; exchange: Exchange } => ({
    endpoint: path === '/ats/job-offers' ? '3' : path === '/users' ? '21' : undefined,
    exchange: {
      step: 'list', request: { method: path === '/users' ? 'PUT' : 'GET', url: `http://127.0.0.1:1${path}`, headers: {} }, startedAt: '', elapsedMs: 1,
      response: { status, headers: { 'content-type': 'text/plain' }, body, ...(body.startsWith('{') ? { json: JSON.parse(body) as unknown } : {}) },
    },
  });

  it('reports the first failing and the first passing answer of an endpoint, and counts the rest only', () => {
    const judge = new ThrottledAnswers({}, new WeakSet());
    const bare = Array.from({ length: 5 }, () => answer('/ats/job-offers', 'Too Many Requests'));
    const reported = new Set<string>();
    const first = judge.judge(bare, reported);
    expect(first.map((j) => [j.endpoint, j.judgements.map((x) => [x.clause, x.passed])])).to.deep.equal([['3', [['ENVELOPE.ERROR_BODY', false]]]]);
    expect(judge.judge(bare, reported)).to.deep.equal([]);
    judge.settle(reported, true);
    // Once the case that reported it ended judged, no other case reports it again.
    expect(judge.judge(bare, new Set())).to.deep.equal([]);
    const envelope = '{"message":"slow down","errors":[{"message":"429","data":null}]}';
    expect(judge.judge([answer('/ats/job-offers', envelope), answer('/ats/job-offers', envelope)], new Set())).to.have.length(1);
    // Another endpoint is reported on its own; an answer to no endpoint of the spec is not judged.
    expect(judge.judge([answer('/users', 'nope'), answer('/elsewhere', 'nope')], new Set()).map((j) => j.endpoint)).to.deep.equal(['21']);
  });

  it('reports an endpoint again when the case that reported it went unjudged', () => {
    const judge = new ThrottledAnswers({}, new WeakSet());
    const skipped = new Set<string>();
    expect(judge.judge([answer('/ats/job-offers', 'x')], skipped)).to.have.length(1);
    judge.settle(skipped, false);
    expect(judge.judge([answer('/ats/job-offers', 'x')], new Set())).to.have.length(1);
  });

  it('lets a case running beside the one that reported it report it too, so none is lost if that one goes unjudged', () => {
    const judge = new ThrottledAnswers({}, new WeakSet());
    const a = new Set<string>();
    const b = new Set<string>();
    expect(judge.judge([answer('/ats/job-offers', 'x')], a)).to.have.length(1);
    expect(judge.judge([answer('/ats/job-offers', 'x')], b)).to.have.length(1);
    judge.settle(a, false);
    judge.settle(b, true);
    expect(judge.judge([answer('/ats/job-offers', 'x')], new Set())).to.deep.equal([]);
  });
});
