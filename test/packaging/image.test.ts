// The image built from the repository's Dockerfile (docs/image.md) is the product too: `rdx run` inside it against
// its bundled simulator, and `rdx simulate` from it as the target of `rdx run --base-url` on the host. Host
// networking, loopback only. Needs an engine and the image (.ci/run builds it: scripts/node-base-image.sh, then
// docker build); without them these tests say why and skip, except under RDX_REQUIRE_CONTAINER_ENGINE=1 (CI).
import { expect } from 'chai';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/spec/index.js';
import { docker, dockerUnavailable, freePort, showEngineIfFailed } from '../support/docker.js';
import { DEMO_CLIENT, latestReport, runProgram, verdictOf, writeVendorProfile, type Outcome } from '../support/package.js';

const IMAGE = process.env['RDX_PRODUCT_IMAGE'] ?? 'rdx-conformance:local';
const LIMIT_MS = 240_000;
// Creating a container on vfs storage copies the image's whole file tree: 14 s in a loaded CI here, so bounds on a
// `docker run` are wide; they stop a hung engine, they do not time it.
const CREATE_MS = 180_000;

const exec = (command: string, args: string[], limitMs: number, env: Record<string, string> = {}): Promise<Outcome> =>
  runProgram(command, args, { limitMs, env });

/** A report folder the container's node user (uid 1000) can write to. */
function reportDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rdx-image-'));
  chmodSync(dir, 0o777);
  return dir;
}

describe(`the image built from the Dockerfile (${IMAGE})`, function () {
  this.timeout(LIMIT_MS);
  const containers = new Set<string>();
  const dirs: string[] = [];

  before(function () {
    const why = dockerUnavailable(IMAGE, `build it as docs/image.md says (scripts/node-base-image.sh, then docker build --build-arg NODE_IMAGE=rdx-node-base:local -t ${IMAGE} .)`);
    if (!why) return;
    if (process.env['RDX_REQUIRE_CONTAINER_ENGINE'] === '1') throw new Error(`the image tests must run (.ci/run started an engine), but ${why}`);
    console.log(`    (skipping the image tests: ${why})`);
    this.skip();
  });

  afterEach(function () {
    showEngineIfFailed(this.currentTest);
  });

  after(() => {
    if (containers.size > 0) docker(['rm', '-f', ...containers]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the package with production dependencies only, and runs as the node user', async () => {
    const script = "const fs = require('fs'); console.log(JSON.stringify({ uid: process.getuid(), cwd: process.cwd(),"
      + " modules: fs.readdirSync('/app/node_modules'), suites: fs.readdirSync('/app/suites'), tests: fs.readdirSync('/app/dist/src').filter((f) => f.endsWith('.test.js')) }))";
    const r = await exec('docker', ['run', '--rm', '--network', 'host', IMAGE, 'node', '-e', script], CREATE_MS);
    expect(r.code, r.stderr).to.equal(0);
    const seen = JSON.parse(r.stdout) as { uid: number; cwd: string; modules: string[]; suites: string[]; tests: string[] };
    expect(seen.uid).to.equal(1000);
    expect(seen.cwd).to.equal('/work');
    const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of Object.keys(own.dependencies)) expect(seen.modules, name).to.include(name.split('/')[0]);
    for (const dev of ['typescript', 'eslint', 'c8', 'chai', 'playwright-core']) expect(seen.modules, dev).not.to.include(dev);
    expect(seen.suites).to.include.members(['auth', 'envelope', 'suite.schema.json']);
    expect(seen.tests).to.deep.equal([]);
  });

  it('rdx run inside the image judges its bundled simulator CONFORMANT (exit 0)', async () => {
    const reports = reportDir();
    dirs.push(reports);
    const name = `rdx-image-test-${process.pid}-run`;
    containers.add(name);
    const r = await exec('docker', ['run', '--rm', '--name', name, '--network', 'host', '-v', `${reports}:/reports`,
      IMAGE, 'rdx', 'run', '-R', 'dot', '--report-dir', '/reports'], LIMIT_MS - 10_000);
    expect(r.code, r.stderr).to.equal(0);
    const report = latestReport(reports);
    expect(report.run.target.embedded).to.equal(true);
    expect(report.summary.total).to.be.above(200);
    expect(verdictOf(report), JSON.stringify(report.summary)).to.equal('CONFORMANT');
  });

  it('rdx simulate in the image is a target for rdx run --base-url from the host', async () => {
    const port = await freePort();
    const name = `rdx-image-test-${process.pid}-simulate`;
    containers.add(name);
    const started = docker(['run', '-d', '--rm', '--name', name, '--network', 'host', IMAGE,
      'rdx', 'simulate', '--host', '127.0.0.1', '--port', String(port)], CREATE_MS);
    expect(started.code, started.stderr).to.equal(0);
    const baseUrl = `http://127.0.0.1:${port}`;
    // Ready when its health answers; bounded in count (and by the test's timeout).
    let up = false;
    for (let i = 0; i < 120 && !up; i++) {
      up = await fetch(`${baseUrl}/__admin/health`, { signal: AbortSignal.timeout(2_000) }).then((res) => res.ok, () => false);
      if (!up) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(up, `the simulator in ${name} never answered:\n${docker(['logs', name]).stdout}`).to.equal(true);

    const reports = mkdtempSync(join(tmpdir(), 'rdx-image-'));
    dirs.push(reports);
    const config = await writeVendorProfile(baseUrl, reports);
    const r = await exec(process.execPath, [join(packageRoot, 'dist', 'src', 'cli', 'main.js'), 'run', '--base-url', baseUrl,
      '--client-id', DEMO_CLIENT.id, '--config', config, '--allow-irreversible', '-R', 'dot', '--report-dir', reports],
    LIMIT_MS - 60_000, { RDX_CLIENT_SECRET: DEMO_CLIENT.secret });
    expect(r.code, r.stderr).to.equal(0);
    const report = latestReport(reports);
    expect(report.run.target).to.deep.include({ baseUrl, embedded: false });
    expect(report.summary.total).to.be.above(200);
    expect(report.summary.byLevel['MUST']?.['skip'] ?? 0, JSON.stringify(report.summary.byLevel)).to.equal(0);
    expect(verdictOf(report), JSON.stringify(report.summary)).to.equal('CONFORMANT');
  });
});
