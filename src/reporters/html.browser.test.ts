// report.html in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core.
// CI installs chromium; where it is absent the suite says why and skips.
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../../test/support/axe.js';
import { launchChromium, skipWithoutChromium, type Chromium } from '../../test/support/chromium.js';
import { packageRoot } from '../spec/index.js';
import { defaults } from '../config/profile.js';
import { codePointName, replaceInvisible } from '../core/terminal.js';
import { runConformance } from '../engine/run.js';
import { embeddedSimulator } from '../compose.js';
import { writeReports } from './files.js';
import { ACCESS_TOKEN, CLIENT_SECRET, ruleBreakingReport } from '../../test/support/rule-breaker.js';
import { readBackReport } from '../../test/support/read-back.js';
import type { RunReport } from '../engine/run.js';


describe('report.html in headless Chromium', function () {
  this.timeout(90_000);
  let browser: Chromium | undefined;
  let page: Page;
  const outside: string[] = [];
  const problems: string[] = [];

  before(async function () {
    skipWithoutChromium(this);
    const report = await ruleBreakingReport();
    const written = writeReports(report, mkdtempSync(join(tmpdir(), 'rdx-html-')));
    browser = await launchChromium({ viewport: { width: 1360, height: 900 } });
    const context = browser.context;
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
    // The exchanges and assertion tables are data until the script has unpacked it.
    await page.waitForSelector('body[data-slots="ready"]', { timeout: 30_000 });
  });

  after(async () => {
    await browser?.close();
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
    expect(await cell.textContent()).to.match(/^1 fail/);
    await cell.click();
    // The link changes the location's hash, and the page filters on the hashchange event that follows, a task
    // later: on a loaded machine the checks below ran first, and the filter then landed after the reset. Waited for
    // as long as the page's own unpacking may take (30 s, above): a bound for a loaded machine, not a speed.
    await page.locator('#cell-filter').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.locator('[id="failure-job-offers.unknown-id.get"]').isVisible()).to.equal(true);
    expect(await page.locator('[id="case-token.issued"]').isVisible()).to.equal(false);
    expect(await page.locator('#cell-filter').textContent()).to.include('GET /ats/job-offers/{id} × envelope');
    await page.click('#f-reset');
    expect(await page.locator('[id="case-token.issued"]').isVisible()).to.equal(true);
  });

  it('opens a failure from the top of the page, its heading below the sticky filter bar and its exchange drawn', async () => {
    await page.evaluate('window.scrollTo(0, 0)');
    // The case broke two clauses, so it is under two groups: the first link is the one a reader meets.
    const top = page.locator('ol.blockers a[href="#failure-job-offers.unknown-id.get"]').first();
    expect(await top.boundingBox().then((b) => (b?.y ?? 1e9) < 900), 'the failure is on the first screen').to.equal(true);
    await top.click();
    const card = page.locator('[id="failure-job-offers.unknown-id.get"]');
    const header = await card.locator('header').boundingBox();
    const bar = await page.locator('#filters').boundingBox();
    expect(header && bar && header.y >= bar.y + bar.height, `card header at ${header?.y}, bar ends at ${(bar?.y ?? 0) + (bar?.height ?? 0)}`).to.equal(true);
    expect(header && header.y < 900).to.equal(true);
    expect(await card.locator('.exchange .ex-grid').first().textContent()).to.include('HTTP 404 Not Found');
  });

  it('counts the cases of a matrix cell by verdict, as the legend says', async () => {
    const cells = await page.locator('td.cell a').evaluateAll((links) => links.map((a) => ({ text: a.textContent ?? '', title: a.getAttribute('title') ?? '' })));
    expect(cells.length).to.be.greaterThan(10);
    for (const c of cells) {
      // The title spells the tally ("… × auth: 1 fail, 15 pass"); the cell shows it as "1 fail · 15 ✓".
      const tally = (c.title.split(': ').at(-1) ?? '').split(', ').map((t: string) => t.replace(/ pass$/, ' ✓')).join(' · ');
      expect(c.text, c.title).to.equal(tally);
    }
    expect(await page.locator('.legend').textContent()).to.include('(✓ in a cell)');
  });

  it('draws a case\'s assertions and exchanges when it is opened', async () => {
    const row = page.locator('[id="case-token.issued"]');
    expect(await row.locator('.exchange').count()).to.equal(0);
    await row.locator('summary').first().click();
    expect(await row.locator('table.assertions tbody tr').count()).to.be.greaterThan(0);
    await row.locator('details.more > summary').first().click();
    expect(await row.locator('.exchange pre.line').first().textContent()).to.match(/^POST http:\/\/127\.0\.0\.1:\d+\/oauth2\/token$/);
    await row.locator('summary').first().click();
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

  it('has no critical or serious accessibility violation on a failing run\'s page (axe-core)', async () => {
    expect(await seriousViolations(page, 'report.html of a failing run')).to.deep.equal([]);
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

describe('report.html of a conformant full run: size and load time in headless Chromium', function () {
  this.timeout(300_000);

  it('stays under 1 MB, has no critical or serious accessibility violation (axe-core); its element count and load time (median of 5, beside an empty page) are reported', async function () {
    skipWithoutChromium(this);
    const { report } = await runConformance({ profile: defaults(), simulator: embeddedSimulator(), reporter: 'none' });
    expect(report.summary.mustFailures).to.equal(0);
    const written = writeReports(report, mkdtempSync(join(tmpdir(), 'rdx-html-full-')));
    const file = join(written.dir, 'report.html');
    const bytes = statSync(file).size;
    const blank = join(written.dir, 'blank.html');
    writeFileSync(blank, '<!DOCTYPE html><title>blank</title><p>blank</p>');
    const browser = await launchChromium({ viewport: { width: 1360, height: 900 } });
    const context = browser.context;
    try {
      // Load time from navigation start to the end of the load event, and until the data is unpacked and drawn.
      const open = async (url: string, ready: boolean): Promise<{ loadMs: number; readyMs: number; elements: number }> => {
        const p = await context.newPage();
        const started = Date.now();
        await p.goto(url, { waitUntil: 'load' });
        if (ready) await p.waitForSelector('body[data-slots="ready"]');
        const readyMs = Date.now() - started;
        // Strings, not functions: this module is type-checked without the DOM library.
        const loadMs = await p.evaluate<number>("(() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; })()");
        const elements = await p.evaluate<number>("document.getElementsByTagName('*').length");
        await p.close();
        return { loadMs, readyMs, elements };
      };
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
      const page: { loadMs: number; readyMs: number; elements: number }[] = [];
      const empty: number[] = [];
      for (let i = 0; i < 5; i++) {
        empty.push((await open(pathToFileURL(blank).href, false)).loadMs);
        page.push(await open(pathToFileURL(file).href, true));
      }
      const load = median(page.map((p) => p.loadMs));
      console.log(`      report.html of a conformant run (${report.summary.total} cases): ${(bytes / 1e6).toFixed(2)} MB, ${page[0]?.elements} elements; `
        + `load ${Math.round(load)} ms, drawn ${Math.round(median(page.map((p) => p.readyMs)))} ms (medians of 5); an empty page: ${Math.round(median(empty))} ms on this machine`);
      expect(bytes).to.be.lessThan(1_000_000);
      // Accessibility on the page of a passing run too (the failing run's is checked above).
      const p = await context.newPage();
      await p.goto(pathToFileURL(file).href);
      await p.waitForSelector('body[data-slots="ready"]');
      expect(await seriousViolations(p, 'report.html of a conformant run')).to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });
});

describe('report.html of read-back failures and exploration in headless Chromium', function () {
  this.timeout(120_000);
  let browser: Chromium | undefined;
  let page: Page;
  let report: RunReport;
  const problems: string[] = [];

  before(async function () {
    skipWithoutChromium(this);
    report = await readBackReport();
    const written = writeReports(report, mkdtempSync(join(tmpdir(), 'rdx-html-cause-')));
    browser = await launchChromium({ viewport: { width: 1360, height: 900 } });
    page = await browser.context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(pathToFileURL(join(written.dir, 'report.html')).href);
    await page.waitForSelector('body[data-slots="ready"]', { timeout: 30_000 });
  });

  after(async () => {
    await browser?.close();
  });

  it('draws the PATCH that caused a read-back failure above the GET that showed it, and a script replaying the whole sequence in order', async () => {
    const c = report.cases.find((x) => x.id === 'application-steps.create-read-replace-patch');
    const read = c?.assertions.find((a) => !a.passed)?.exchange as number;
    const card = page.locator('[id="failure-application-steps.create-read-replace-patch"]');
    const lines = await card.locator('.finding .exchange pre.line').allTextContents();
    expect(lines.filter((l) => !/^HTTP /.test(l)).map((l) => l.split(' ')[0])).to.deep.equal(['PATCH', 'GET']);
    const cause = await card.locator('.cause').boundingBox();
    const symptom = await card.locator('.symptom').boundingBox();
    expect((cause?.y ?? 1e9) < (symptom?.y ?? 0), 'the write is drawn above the read').to.equal(true);
    const script = await card.locator('.curl.script pre').textContent() ?? '';
    const curls = script.split('\n').filter((l) => l.startsWith('curl '));
    // Every exchange of the case up to the failing read, in the order sent: the create first, the PATCH, the GET last.
    expect(curls).to.have.length(read + 1);
    expect(curls[0]).to.match(/-X POST /);
    expect(curls.at(-2)).to.match(/-X PATCH /);
    expect(curls.at(-1)).to.not.match(/ -X /);
    expect(script).to.match(/^#!\/usr\/bin\/env bash\n/).and.include('"authorization: Bearer $RDX_ACCESS_TOKEN"');
    expect(await card.locator('.curl.script button.copy').isVisible()).to.equal(true);
  });

  it('shows a failing explore case\'s figures, its whole sequence as a script and its regression YAML as text, with a copy button', async () => {
    const x = report.cases.find((c) => c.id === 'explore.application-steps');
    const card = page.locator('[id="failure-explore.application-steps"]');
    expect(await card.locator('dl.explore-figures').textContent()).to.include(`Seed${x?.explore?.seed}`).and.include(`Shrinks${x?.explore?.shrinks}`);
    const script = await card.locator('.explore .curl.script pre').textContent() ?? '';
    expect(script.split('\n').filter((l) => l.startsWith('curl '))).to.have.length(x?.exchanges.length ?? -1);
    const yaml = card.locator('.curl.regression pre');
    // Shown with each invisible character (a zero-width joiner of an emoji the search drew) marked by its code point;
    // copied exactly.
    expect(await yaml.textContent()).to.equal(replaceInvisible(x?.explore?.regression ?? '', codePointName));
    expect(await yaml.locator('b').count(), 'the YAML\'s <b>bold</b> is text').to.equal(0);
    expect(await card.locator('.curl.regression button.copy').isVisible()).to.equal(true);
    expect(await card.locator('.curl.regression button.copy').getAttribute('data-copy')).to.equal(x?.explore?.regression);
  });

  it('has no critical or serious accessibility violation and logs no error', async () => {
    expect(await seriousViolations(page, 'report.html of read-back failures')).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
  });
});
