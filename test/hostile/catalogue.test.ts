// The harness against every misbehaving target of the catalogue (test/hostile/servers.ts), on a subset of cases
// with a 1 s per-request limit: each run must end in time with clear verdicts (or exit 3 when no token can be
// had), keep every body under the size cap, stay within a memory bound, leak no secret and reject nothing
// unhandled. Full runs against the worst of them, in a child process with a capped heap, are in full-run.test.ts.
import { expect } from 'chai';
import { defaults, type Profile } from '../../src/config/profile.js';
import { planCases } from '../../src/engine/plan.js';
import type { CaseResult } from '../../src/core/results.js';
import { runConformance, type RunOutcome } from '../../src/engine/run.js';
import { loadSuites } from '../../src/engine/suite.js';
import { UnreachableError } from '../../src/errors.js';
import { CATALOGUE, secretIn, startHostile, type HostileKind } from './servers.js';
import { watch, within } from './watch.js';

/** With `/`, `+` and `Ü`, so its JSON-escaped, PHP-escaped, percent- and form-encoded forms all differ from it. */
const SECRET = 'hostile/client+secret-Ü7f3a9c';
const TIMEOUT_MS = 1_000;
const CAP = 20 * 1024 * 1024;
/** One case of each shape: token, refusal, walk (bounded and unbounded), batch, list envelope, client mistakes. */
const SUBSET = '^(token\\.issued|auth\\.no-header\\.list-job-offers|job-offers\\.walk-unfiltered|activities\\.page-shape|'
  + 'job-offers\\.batch-all-valid|envelope\\.list\\.job-offers|envelope\\.client-mistakes) ';
/** Generous: a run of the subset needs a few tens of MiB; unbounded buffering of the endless bodies would need GiBs. */
const RSS_GROWTH_LIMIT = 1024 * 1024 * 1024;

/** What the refusal case (GET a list without a token) must say about each target that lets the harness in. */
const NO_HEADER_CASE = 'auth.no-header.list-job-offers';
const SAYS: Partial<Record<HostileKind, { verdict: 'fail' | 'error'; text: RegExp }>> = {
  garbage: { verdict: 'fail', text: /not JSON/ },
  'not-http': { verdict: 'error', text: /no answer .*(does not match the HTTP\/1\.1 protocol|not valid HTTP)/ },
  'endless-body': { verdict: 'fail', text: new RegExp(`exceeds the ${CAP}-byte cap`) },
  'slow-drip': { verdict: 'error', text: new RegExp(`no complete answer within ${TIMEOUT_MS} ms`) },
  'reset-mid-response': { verdict: 'error', text: /closed before a complete answer/ },
  'short-content-length': { verdict: 'error', text: /closed before a complete answer|not valid HTTP/ },
  'long-content-length': { verdict: 'fail', text: /not JSON/ },
  'redirect-loop': { verdict: 'fail', text: /status 307/ },
  'huge-json': { verdict: 'fail', text: /accepted with status 200/ },
  'endless-pages': { verdict: 'fail', text: /accepted with status 200/ },
  'deep-json': { verdict: 'fail', text: /nests deeper than 1000 levels/ },
  'html-api': { verdict: 'fail', text: /not JSON/ },
};

const profileFor = (baseUrl: string): Profile => ({
  ...defaults(), baseUrl, clientId: 'hostile-client', clientSecret: SECRET,
  http: { ...defaults().http, timeoutMs: TIMEOUT_MS, maxResponseBytes: CAP },
});

/** Everything a case says about itself: its reason and its broken assertions. */
const told = (c: CaseResult | undefined): string => [c?.reason ?? '', ...(c?.assertions ?? []).filter((a) => !a.passed).map((a) => a.message)].join(' | ');

describe('the harness against hostile targets (catalogue, subset of cases)', function () {
  this.timeout(40_000);
  const planned = planCases(loadSuites(), { grep: SUBSET }).cases.map((c) => c.id);

  for (const entry of CATALOGUE) {
    it(`${entry.kind}: ${entry.description}`, async () => {
      const server = await startHostile(entry.kind);
      const w = watch();
      const started = performance.now();
      let outcome: RunOutcome | undefined;
      let failure: unknown;
      try {
        outcome = await within(runConformance({ profile: profileFor(server.url), reporter: 'none', filters: { grep: SUBSET } }), 25_000, `the run against ${entry.kind}`);
      } catch (error) {
        failure = error;
      } finally {
        await server.close();
      }
      const seconds = (performance.now() - started) / 1000;
      const seen = w.stop();
      const verdicts = outcome ? Object.entries(outcome.report.summary.byVerdict).map(([v, n]) => `${n} ${v}`).join(', ') : `exit ${String((failure as { exitCode?: number } | undefined)?.exitCode)}`;
      process.stdout.write(`      ${entry.kind}: ${seconds.toFixed(1)} s, ${verdicts}; RSS +${Math.round(seen.peakRssGrowth / 2 ** 20)} MiB; `
        + `server: ${server.stats.requests} requests, ${(server.stats.bytesWritten / 2 ** 20).toFixed(1)} MiB written\n`);
      expect(seen.rejections, 'unhandled rejections').to.deep.equal([]);
      expect(seen.exceptions, 'uncaught exceptions').to.deep.equal([]);
      expect(seen.peakRssGrowth, `RSS grew by ${Math.round(seen.peakRssGrowth / 2 ** 20)} MiB`).to.be.below(RSS_GROWTH_LIMIT);

      if (entry.expect === 'unreachable') {
        // No token: exit 3 at once, naming the token endpoint, never the secret.
        expect(failure, String(failure)).to.be.instanceOf(UnreachableError);
        const error = failure as UnreachableError;
        expect(error.exitCode).to.equal(3);
        expect(error.message).to.match(/token endpoint .*(did not answer|gave no access_token|issued a token the run cannot use)/).and.not.include(SECRET);
        expect(error.message).to.not.include(server.token);
        expect(seconds).to.be.below(TIMEOUT_MS / 1000 + 4);
        return;
      }

      expect(failure, String(failure)).to.equal(undefined);
      const { report, exitCode } = outcome as RunOutcome;
      expect(exitCode).to.equal(1);
      expect(report.summary.conformant).to.equal(false);
      // Every planned case has a verdict: a case the harness failed on must not vanish and leave a clean report.
      expect(report.cases.map((c) => c.id).sort()).to.deep.equal([...planned].sort());
      for (const c of report.cases.filter((x) => x.verdict === 'fail' || x.verdict === 'error')) {
        expect(told(c), `${c.id} gives no reason`).to.match(/\S/);
      }
      const expected = SAYS[entry.kind];
      if (expected) {
        const c = report.cases.find((x) => x.id === NO_HEADER_CASE);
        expect(c?.verdict, told(c)).to.equal(expected.verdict);
        expect(told(c)).to.match(expected.text);
      }
      for (const ex of report.cases.flatMap((c) => c.exchanges)) {
        // The size cap holds, and no request outlived its time limit by more than scheduling noise.
        expect(Buffer.byteLength(ex.response?.body ?? '')).to.be.at.most(CAP);
        expect(ex.elapsedMs).to.be.below(TIMEOUT_MS + 1_500);
      }
      // In any form (raw, JSON- or PHP-escaped, percent- or form-encoded), anywhere in the report.
      expect(secretIn(report, SECRET), 'the client secret').to.equal(undefined);
      expect(secretIn(report, server.token), 'the token').to.equal(undefined);
      if (entry.kind === 'endless-body') {
        // The harness stopped reading at the cap: the server could write little more than the cap per request.
        expect(server.stats.bytesWritten).to.be.below(server.stats.requests * (CAP + 16 * 1024 * 1024));
      }
      if (entry.kind === 'endless-pages') {
        // A walk without maxPages stops at the byte budget, as an error that says so.
        const walk = report.cases.find((x) => /more than 64 MiB/.test(x.reason ?? ''));
        expect(walk?.verdict, report.cases.map((x) => `${x.id}: ${x.verdict} ${told(x)}`).join('\n')).to.equal('error');
        expect(walk?.reason).to.match(/more than 64 MiB .* the walk was stopped/);
      }
    });
  }
});
