// The programmatic API as its entry module gives it (the installed package is tested in test/packaging/): options
// resolved as `rdx run` resolves them, the verdict and the exit code `rdx run` would give.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, personaByName, runConformance, startSimulator, type Persona } from './index.js';
import { packageRoot } from './spec/index.js';

describe('the programmatic API (src/index.ts)', function () {
  this.timeout(60_000);
  it('can be required from CommonJS: no module it loads awaits at its top (require(esm) refuses those)', () => {
    const api = join(packageRoot, 'dist', 'src', 'index.js');
    const out = spawnSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(api)}).allPersonas().length)`], { encoding: 'utf8' });
    expect(out.stderr).to.equal('');
    expect(Number(out.stdout)).to.be.above(100);
  });

  // No RDX_* variables and no rdx.config.yaml: the bundled simulator, as `rdx run` with no profile.
  const quiet = { env: {}, cwd: mkdtempSync(join(tmpdir(), 'rdx-api-')) };

  it('runs the filtered cases against the bundled simulator: INCOMPLETE, exit 4, or 0 when allowed', async () => {
    const strict = await runConformance({ ...quiet, filters: { grep: '^token\\.' } });
    const ids = strict.report.cases.map((c) => c.id);
    expect(ids).to.not.be.empty;
    expect(ids.filter((id) => !id.startsWith('token.')), 'cases the filter leaves out').to.deep.equal([]);
    expect([strict.verdict, strict.report.summary.verdict, strict.exitCode]).to.deep.equal(['INCOMPLETE', 'INCOMPLETE', EXIT.INCOMPLETE]);
    const allowed = await runConformance({ ...quiet, filters: { grep: '^token\\.' }, allowIncomplete: true });
    expect([allowed.verdict, allowed.exitCode]).to.deep.equal(['INCOMPLETE', EXIT.OK]);
  });

  it('passes simulator options on: a fault persona makes the run NOT_CONFORMANT, exit 1', async () => {
    const { verdict, exitCode, report } = await runConformance({
      ...quiet, filters: { grep: '^envelope\\.list\\.' }, simulator: { personas: [personaByName('missing-message') as Persona] },
    });
    expect([verdict, exitCode]).to.deep.equal(['NOT_CONFORMANT', EXIT.MUST_FAILED]);
    expect(report.cases.filter((c) => c.verdict === 'fail').flatMap((c) => c.assertions.filter((a) => !a.passed).map((a) => a.clause))).to.include('ENVELOPE.MESSAGE');
  });

  it('takes the other run options as `rdx run` does: suite files, --bail, --fail-on should, a reporter', async () => {
    const suite = join(packageRoot, 'suites', 'envelope', 'envelope.yaml');
    const { report, exitCode } = await runConformance({
      ...quiet, suiteFiles: [suite], bail: true, failOn: 'should', reporter: 'none', concurrency: 1,
      simulator: { personas: [personaByName('missing-message') as Persona] },
    });
    // One case at a time, nothing has run ahead of the first failure (side by side, the cases under way end too).
    expect(report.run.concurrency).to.equal(1);
    expect(report.cases.filter((c) => c.verdict === 'fail'), 'bail: the run stops at the first failing case').to.have.length(1);
    expect(report.cases.map((c) => c.id), 'cases').to.not.be.empty;
    expect(report.cases.filter((c) => !String(c.file).includes('envelope/envelope.yaml')).map((c) => c.id), 'cases from other files').to.deep.equal([]);
    expect(exitCode).to.equal(EXIT.MUST_FAILED);
  });

  it('takes fixtures as the config file gives them: a simulator started apart gets its job offer read, and a bad value is refused', async () => {
    const sim = await startSimulator({ port: 0, records: 50 });
    try {
      const base = { ...quiet, baseUrl: sim.baseUrl, clientId: sim.options.clientId, clientSecret: sim.options.clientSecret, filters: { grep: '^job-offers\\.read-fixture ' } };
      const without = await runConformance(base);
      expect(without.report.cases.map((c) => [c.id, c.verdict])).to.deep.equal([['job-offers.read-fixture', 'skip']]);
      const withFixtures = await runConformance({ ...base, fixtures: { atsJobOfferIds: sim.atsJobOfferFixtureIds() } });
      expect(withFixtures.report.cases.map((c) => [c.id, c.verdict])).to.deep.equal([['job-offers.read-fixture', 'pass']]);
      let refused: Error | undefined;
      await runConformance({ ...base, fixtures: { atsJobOfferIds: ['1', ''] } }).catch((e: Error) => { refused = e; });
      expect(refused?.message).to.equal('options.fixtures.atsJobOfferIds[1]: expected a non-empty string');
    } finally {
      await sim.close();
    }
  });
});
