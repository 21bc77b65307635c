// report.html in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core.
// CI installs chromium; where it is absent the suite says why and skips.
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { packageRoot } from '../spec/index.js';
import { writeReports } from './files.js';
import { ACCESS_TOKEN, CLIENT_SECRET, ruleBreakingReport } from './rule-breaker.test.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('report.html in headless Chromium', function () {
  this.timeout(90_000);
  let context: BrowserContext | undefined;
  let page: Page;
  const profileDir = mkdtempSync(join(tmpdir(), 'rdx-chromium-'));
  const outside: string[] = [];
  const problems: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`    skipped: ${CHROMIUM} is not installed (apt-get install -y chromium); CI installs it and runs these tests`);
      this.skip();
    }
    const report = await ruleBreakingReport();
    const written = writeReports(report, mkdtempSync(join(tmpdir(), 'rdx-html-')));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1360, height: 900 },
    });
    // The page must be whole on its own: any request beyond the file itself is recorded and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    await page.goto(pathToFileURL(join(written.dir, 'report.html')).href);
  });

  after(async () => {
    await context?.close();
    rmSync(profileDir, { recursive: true, force: true });
  });

  it('shows the verdict first', async () => {
    const verdict = page.locator('.verdict-word');
    expect(await verdict.isVisible()).to.equal(true);
    expect(await verdict.textContent()).to.equal('NOT CONFORMANT');
    expect(await page.locator('.verdict-why').textContent()).to.match(/^[1-9]\d* MUST failures?/);
  });

  it('has a red matrix cell that leads to the failing case and hides the others', async () => {
    expect(await page.locator('table.matrix tbody tr').count()).to.equal(21);
    const cell = page.locator('td.cell.v-fail a[data-cell="4:envelope"]');
    expect(await cell.textContent()).to.match(/^fail/);
    await cell.click();
    expect(await page.locator('[id="failure-job-offers.unknown-id.get"]').isVisible()).to.equal(true);
    expect(await page.locator('[id="case-token.issued"]').isVisible()).to.equal(false);
    expect(await page.locator('#cell-filter').textContent()).to.include('GET /ats/job-offers/{id} × envelope');
    await page.click('#f-reset');
    expect(await page.locator('[id="case-token.issued"]').isVisible()).to.equal(true);
  });

  it('shows a failure with its clause, exchange and a curl line naming $RDX_ACCESS_TOKEN, never a secret', async () => {
    const card = page.locator('[id="failure-job-offers.unknown-id.get"]');
    expect(await card.locator('.assertion code.clause').allTextContents()).to.include('ENVELOPE.MESSAGE');
    expect(await card.locator('blockquote.quote').first().textContent()).to.include('message | string | always');
    expect(await card.locator('.ex-grid').first().textContent()).to.include('HTTP 404');
    const curl = await card.locator('.curl pre').first().textContent();
    expect(curl).to.match(/^curl .*"authorization: Bearer \$RDX_ACCESS_TOKEN"/);
    const html = await page.content();
    expect(html).to.not.include(ACCESS_TOKEN);
    expect(html).to.not.include(CLIENT_SECRET);
  });

  it('hides passing cases when the verdict filter says so', async () => {
    const passing = page.locator('.case[data-verdict="pass"]');
    expect(await passing.count()).to.be.greaterThan(10);
    expect(await passing.first().isVisible()).to.equal(true);
    await page.uncheck('input[name="verdict"][value="pass"]');
    const stillShown = await passing.evaluateAll((els) => els.filter((el) => (el as unknown as { offsetParent: unknown }).offsetParent !== null).length);
    expect(stillShown).to.equal(0);
    expect(await page.locator('[id="case-job-offers.unknown-id.get"]').isVisible()).to.equal(true);
    expect(await page.locator('#shown').textContent()).to.match(/^\d+ of \d+ cases shown$/);
    await page.click('#f-reset');
  });

  it('loads nothing from outside and logs no error, then saves a full-page screenshot', async () => {
    expect(outside).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    const dir = join(packageRoot, 'reports');
    mkdirSync(dir, { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(dir, 'report-screenshot.png'), fullPage: true });
    expect(existsSync(join(dir, 'report-screenshot.png'))).to.equal(true);
  });
});
