import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../src/spec/index.js';
import { rdxProcess } from './cli.js';
import { chromiumUnavailable, skipWithoutChromium } from './chromium.js';
import { ALLOWED_SKIPS_FILE, judgePending, parseAllowedSkips, skippableCounts } from './pending.js';

const LIST = parseAllowedSkips(`
- test: "^browser "
  reason: no browser here
  ci: false
- test: "^engine "
  reason: no engine could be started
  ci: true
`);

describe('skipped tests: the allowed list and its verdict', () => {
  it('fails CI on a skipped test the list does not name, or names for outside CI only, and allows the rest', () => {
    const verdict = judgePending(['browser opens the page', 'engine runs the image', 'plain arithmetic'], LIST, true);
    expect(verdict.problems).to.deep.equal([
      `skipped in CI: browser opens the page (${ALLOWED_SKIPS_FILE} allows it outside CI only)`,
      `skipped in CI: plain arithmetic (not in ${ALLOWED_SKIPS_FILE})`,
    ]);
    expect(verdict.lines).to.deep.equal([
      `  NOT ALLOWED in CI: ${ALLOWED_SKIPS_FILE} allows it outside CI only\n    - browser opens the page`,
      '  allowed: no engine could be started\n    - engine runs the image',
      `  NOT ALLOWED in CI: not in ${ALLOWED_SKIPS_FILE}\n    - plain arithmetic`,
    ]);
  });

  it('outside CI prints every skip with its reason, or that it would fail CI, and fails nothing', () => {
    const verdict = judgePending(['browser opens the page', 'plain arithmetic', 'browser clicks'], LIST, false);
    expect(verdict.problems).to.deep.equal([]);
    expect(verdict.lines, 'each reason once, its tests under it').to.deep.equal([
      '  allowed: no browser here\n    - browser opens the page\n    - browser clicks',
      `  would fail CI: not in ${ALLOWED_SKIPS_FILE}\n    - plain arithmetic`,
    ]);
  });

  it('counts, per entry, the tests it names that ran and that skipped', () => {
    const states = [
      { title: 'browser opens the page', state: 'passed' }, { title: 'browser clicks', state: 'failed' },
      { title: 'engine runs the image', state: 'pending' }, { title: 'plain arithmetic', state: 'pending' },
    ];
    expect(skippableCounts(states, LIST)).to.deep.equal(['  ^browser : 2 ran, 0 skipped', '  ^engine : 0 ran, 1 skipped']);
  });

  it('refuses a malformed list, naming the entry and the field', () => {
    expect(() => parseAllowedSkips('test: x')).to.throw(`${ALLOWED_SKIPS_FILE}: expected a list`);
    expect(() => parseAllowedSkips('- test: x\n  ci: true')).to.throw(`${ALLOWED_SKIPS_FILE}: [0].reason: say why the test may skip`);
    expect(() => parseAllowedSkips('- test: x\n  reason: y\n  ci: yes')).to.throw('[0].ci: expected true or false');
    expect(() => parseAllowedSkips('- test: x\n  reason: y\n  ci: true\n- test: "("\n  reason: y\n  ci: true')).to.throw('[1].test: not a regular expression');
    expect(() => parseAllowedSkips('- test: x\n  reason: y\n  ci: true\n  why: z')).to.throw('[0]: unknown field why');
  });

  it('reads the repository list, which allows no test to skip in CI (.ci/run fails when no Docker engine starts)', () => {
    const list = parseAllowedSkips(readFileSync(join(packageRoot, ALLOWED_SKIPS_FILE), 'utf8'));
    expect(list.filter((a) => a.ci).map((a) => a.test.source)).to.deep.equal([]);
    const ci = readFileSync(join(packageRoot, '.ci', 'run'), 'utf8');
    // The engine's start decides the run: a failed start exits, and the requirement is set unconditionally after it.
    expect(ci).to.match(/if ! scripts\/docker-engine\.sh start; then\n(?:.*\n)*?\s+exit 1\nfi\nexport RDX_REQUIRE_CONTAINER_ENGINE=1\n/);
  });
});

describe('the skip rule as the reporter of a whole mocha run', function () {
  this.timeout(60_000);
  const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
  const reporter = fileURLToPath(new URL('./pending.js', import.meta.url));
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-pending-'));
    writeFileSync(join(dir, 'a.test.mjs'), "describe('plain', () => { it('adds', () => {}); it.skip('arithmetic', () => {}); });\n");
    writeFileSync(join(dir, 'b.test.mjs'), "describe('other', () => { it('passes', () => {}); });\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (ci: string, ...flags: string[]) => rdxProcess(
    ['--no-config', '--reporter', reporter, ...flags, join(dir, 'a.test.mjs'), join(dir, 'b.test.mjs')],
    { script: mocha, env: { CI: ci }, hangGuardMs: 50_000 });

  for (const flags of [[], ['--parallel', '--jobs', '2']]) {
    const mode = flags.length > 0 ? 'side by side (--parallel)' : 'one file after the other';
    it(`fails CI on a skip the list does not allow, with every test passing, ${mode}`, async () => {
      const ended = await run('true', ...flags);
      expect(ended.stdout).to.include('2 passing').and.include('1 pending');
      expect(ended.stdout).to.include(`skipped in CI: plain arithmetic (not in ${ALLOWED_SKIPS_FILE})`);
      expect(ended.code, ended.stdout + ended.stderr).to.equal(1);
    });
  }

  it('outside CI lists the same skip and passes', async () => {
    const ended = await run('false', '--parallel', '--jobs', '2');
    expect(ended.stdout).to.include(`would fail CI: not in ${ALLOWED_SKIPS_FILE}\n    - plain arithmetic`);
    expect(ended.stdout).to.include('Tests that may skip');
    expect(ended.code, ended.stdout + ended.stderr).to.equal(0);
  });
});

describe('browser tests without Chromium', () => {
  const missing = '/nonexistent/rdx-chromium';
  let saved: string | undefined;
  beforeEach(() => (saved = process.env['RDX_REQUIRE_CHROMIUM']));
  afterEach(() => {
    if (saved === undefined) delete process.env['RDX_REQUIRE_CHROMIUM'];
    else process.env['RDX_REQUIRE_CHROMIUM'] = saved;
  });

  it('skip, saying why, where Chromium is missing', () => {
    delete process.env['RDX_REQUIRE_CHROMIUM'];
    let skipped = 0;
    skipWithoutChromium({ skip: () => void skipped++ }, missing);
    expect(skipped).to.equal(1);
    expect(chromiumUnavailable(missing)).to.equal(`${missing} is not installed (apt-get install -y chromium, or set RDX_CHROMIUM_PATH)`);
    expect(chromiumUnavailable(process.execPath), 'an executable that exists').to.equal(undefined);
  });

  it('fail instead under RDX_REQUIRE_CHROMIUM=1 (CI)', () => {
    process.env['RDX_REQUIRE_CHROMIUM'] = '1';
    let skipped = 0;
    expect(() => skipWithoutChromium({ skip: () => void skipped++ }, missing))
      .to.throw(`the browser tests must run (RDX_REQUIRE_CHROMIUM=1), but ${missing} is not installed`);
    expect(skipped).to.equal(0);
  });
});
