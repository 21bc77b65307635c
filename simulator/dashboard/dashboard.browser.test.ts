// The dashboard in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core.
// A request made from outside shows up in the live journal, a fault persona switched on from the page turns the
// verdict of a conformance run red, and the page loads nothing beyond its own origin. Screenshots of each step
// go to reports/dashboard-*.png. CI installs chromium; where it is absent the suite says why and skips.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { packageRoot } from '../../src/spec/index.js';
import { parseSnapshot } from '../snapshot.js';
import { Client, startTest, type Harness } from '../../test/support/simulator.js';
import { conformanceRunner } from '../../src/compose.js';
import { seriousViolations } from '../../test/support/axe.js';
import { launchChromium, skipWithoutChromium } from '../../test/support/chromium.js';

const SHOTS = join(packageRoot, 'reports');

interface Browser {
  context: BrowserContext;
  page: Page;
  /** Requests the page tried beyond the simulator's origin (all refused). */
  outside: string[];
  /** Page errors, console errors and warnings (a CSP violation is one). */
  problems: string[];
  close(): Promise<void>;
}

async function openBrowser(origin: string): Promise<Browser> {
  const browser = await launchChromium({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  const context = browser.context;
  const outside: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  return {
    context, page, outside, problems,
    close: () => browser.close(),
  };
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // The toast fades by itself; a screenshot waits for it so it never covers the page.
  await page.locator('#toast').waitFor({ state: 'hidden', timeout: 10_000 });
  await page.screenshot({ path: join(SHOTS, `dashboard-${name}.png`) });
}

describe('dashboard in headless Chromium', function () {
  this.timeout(120_000);
  let t: Harness;
  let b: Browser | undefined;
  let page: Page;
  /** Snapshot files the page downloads or is given to import. */
  let files = '';

  before(async function () {
    skipWithoutChromium(this);
    files = mkdtempSync(join(tmpdir(), 'rdx-snapshots-'));
    t = await startTest({ records: 1000, conformance: conformanceRunner() }, false);
    b = await openBrowser(new URL(t.sim.baseUrl).origin);
    page = b.page;
    await page.goto(t.sim.dashboardUrl ?? '');
    await page.locator('#live-chip.live').waitFor({ timeout: 15_000 });
  });

  after(async () => {
    await b?.close();
    await t?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  it('shows the quick start: base URL, client, the demo secret and curl lines', async () => {
    expect(await page.textContent('#q-base')).to.equal(t.sim.baseUrl);
    expect(await page.textContent('#q-id')).to.equal('rdx-client');
    expect(await page.textContent('#q-secret')).to.equal('rdx-secret');
    expect(await page.textContent('#curl-token')).to.match(/^export RDX_ACCESS_TOKEN=\$\(curl -s -X POST \S+\/oauth2\/token/);
    expect(await page.textContent('#curl-list')).to.include(`curl -s ${t.sim.baseUrl}/ats/job-offers`);
    expect(await page.textContent('#h-chips')).to.include('seed 1').and.include('1,000 records').and.include('chaos off');
  });

  it('shows a request made from outside in the live journal, its bodies a click away, secrets masked', async () => {
    const token = await t.client.login();
    const res = await t.client.get('/ats/job-offers?reference=JO-2026-000001');
    expect(res.status).to.equal(200);
    const row = page.locator('#j-body tr', { hasText: '/ats/job-offers?reference=JO-2026-000001' });
    await row.waitFor({ timeout: 10_000 });
    expect(await row.locator('.st').textContent()).to.equal('200');
    expect(await row.locator('.who').textContent()).to.equal('rdx-client');
    await row.click();
    const body = page.locator('#j-resbody');
    await body.waitFor({ timeout: 10_000 });
    expect(await body.textContent()).to.include('"reference": "JO-2026-000001"');
    expect(await page.locator('#j-dbody').textContent()).to.include('Bearer ***');
    await shot(page, 'journal');

    await page.locator('#j-body tr', { hasText: '/oauth2/token' }).click();
    await page.locator('#j-reqbody').waitFor({ timeout: 10_000 });
    expect(await page.textContent('#j-reqbody')).to.include('"client_secret": "***"');
    expect(await page.textContent('#j-resbody')).to.include('"access_token": "***"');
    expect(await page.content()).to.not.include(token);
    // The demo secret is in the quick start on purpose; the journal shows it masked.
    expect(await page.textContent('#j-dbody')).to.not.include('rdx-secret');
    await page.click('#j-close');
  });

  it('browses the records and follows a job offer to its jobboard activities and back', async () => {
    await page.click('#tab-records');
    const first = page.locator('#r-body tr').first();
    await first.waitFor();
    expect(await first.locator('td').first().textContent()).to.equal('JO-2026-000001');
    const activities = first.locator('[data-link="jobboard-activities"]');
    const count = Number(await activities.textContent());
    expect(count).to.be.greaterThan(0);
    await activities.click();
    await page.locator('[data-resource="jobboard-activities"][aria-pressed="true"]').waitFor();
    await page.locator('#r-info', { hasText: `${count} record` }).waitFor();
    expect(await page.locator('#r-body tr').count()).to.equal(Math.min(count, 25));
    await page.locator('#r-body tr').first().click();
    await page.locator('#r-dbody pre').waitFor();
    expect(await page.textContent('#r-dbody pre')).to.include('"job_offer_reference": "JO-2026-000001"');
    await shot(page, 'records');
    await page.locator('#r-dbody button', { hasText: 'Job offer JO-2026-000001' }).click();
    await page.locator('[data-resource="job-offers"][aria-pressed="true"]').waitFor();
    await page.locator('#r-info', { hasText: '1 record' }).waitFor();
    await page.fill('#r-search', 'no record has this text');
    await page.locator('#r-empty').waitFor({ state: 'visible' });
  });

  it('exports a snapshot, and importing that file after a reseed brings the store and its counts back', async () => {
    await page.click('[data-resource="job-offers"]');
    const offers = t.store.jobOffers.size;
    await page.locator('#r-info', { hasText: `${offers.toLocaleString('en-US')} records` }).waitFor();
    const counts = await page.textContent('#d-counts');
    const before = t.store.dump();

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#d-export')]);
    const exported = join(files, 'exported.json');
    await download.saveAs(exported);
    expect(download.suggestedFilename()).to.equal('rdx-simulator-snapshot.json');
    expect(parseSnapshot(readFileSync(exported, 'utf8')).store).to.deep.equal(before);
    await page.locator('#d-snap', { hasText: 'Exported rdx-simulator-snapshot.json' }).waitFor();

    await page.fill('#d-seed', '4');
    await page.fill('#d-records', '200');
    await page.click('#d-reseed');
    await page.locator('#h-chips', { hasText: 'seed 4 · 200 records' }).waitFor({ timeout: 10_000 });
    await page.locator('#r-info', { hasText: `${t.store.jobOffers.size} records` }).waitFor();
    expect(await page.textContent('#d-counts')).to.not.equal(counts);

    await page.setInputFiles('#d-import-file', exported);
    await page.locator('#d-snap', { hasText: 'Snapshot imported' }).waitFor({ timeout: 10_000 });
    expect(await page.getAttribute('#d-snap', 'class')).to.not.include('bad');
    expect(await page.textContent('#d-snap')).to.include(`ATS job offers ${offers.toLocaleString('en-US')}`);
    // The data views follow: the header, the counts and the records listing.
    await page.locator('#h-chips', { hasText: 'seed 1 · 1,000 records' }).waitFor({ timeout: 10_000 });
    await page.locator('#r-info', { hasText: `${offers.toLocaleString('en-US')} records` }).waitFor();
    expect(await page.textContent('#d-counts')).to.equal(counts);
    expect(t.store.dump()).to.deep.equal(before);
    await shot(page, 'snapshot');
  });

  it('refuses a corrupt snapshot, shows the server\'s words as text, and changes nothing', async () => {
    const counts = await page.textContent('#d-counts');
    const before = t.store.dump();
    const logged = b?.problems.length ?? 0;
    const hostile = '<img src=x onerror="document.title=\'owned\'">';
    const corrupt = join(files, 'corrupt.json');
    writeFileSync(corrupt, JSON.stringify({ format: 'rdx-simulator-snapshot', version: hostile, seed: 1, records: 1, store: {} }));
    await page.setInputFiles('#d-import-file', corrupt);
    const refusal = page.locator('#d-snap.bad');
    await refusal.waitFor({ timeout: 10_000 });
    expect(await refusal.textContent()).to.equal(`The snapshot was refused, nothing changed: snapshot format version ${JSON.stringify(hostile)}; this simulator reads version 1.`);
    expect(await page.locator('#d-snap *').count(), 'text, never markup').to.equal(0);
    expect(await page.title()).to.not.equal('owned');

    writeFileSync(corrupt, '{"format": "rdx-simulator-snapshot", "version": 1, "store": {');
    await page.setInputFiles('#d-import-file', corrupt);
    await page.locator('#d-snap.bad', { hasText: 'nothing changed: not JSON' }).waitFor({ timeout: 10_000 });
    expect(t.store.dump()).to.deep.equal(before);
    expect(await page.textContent('#d-counts')).to.equal(counts);
    // Each refusal logs the browser's own "400" line; nothing else may.
    const refusals = b?.problems.splice(logged) ?? [];
    expect(refusals.filter((p) => !/status of 400/.test(p))).to.deep.equal([]);
    expect(refusals).to.have.length(2);
  });

  it('switches a fault persona on, and a conformance run turns NOT CONFORMANT, catching the clause it breaks', async () => {
    await page.click('#tab-personas');
    await page.fill('#p-filter', 'message');
    const toggle = page.locator('[data-persona="missing-message"]');
    await toggle.waitFor();
    await toggle.check();
    await page.locator('.chip.fault', { hasText: 'missing-message' }).waitFor({ timeout: 10_000 });
    expect(t.sim.options.personas.map((p) => p.name)).to.deep.equal(['missing-message']);
    await shot(page, 'personas');
    // The tab's name as a screen reader reads it: the count a word apart, not "Personas1".
    await page.locator('#p-count', { hasText: /^1$/ }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#tab-personas').ariaSnapshot()).to.equal('- tab "Personas 1" [selected]');

    await page.click('#tab-journal');
    await page.click('#run-btn');
    const verdict = page.locator('#verdict[data-verdict]');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await page.textContent('#verdict-word')).to.equal('NOT CONFORMANT');
    expect(await verdict.getAttribute('class')).to.include('fail');
    expect(await page.locator('.clause[data-clause="ENVELOPE.MESSAGE"]').textContent()).to.include('caught');
    const ids = await page.locator('#j-body tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids.length).to.be.greaterThan(100);
    expect(new Set(ids).size, 'each request once in the journal').to.equal(ids.length);
    await shot(page, 'verdict');

    const [report] = await Promise.all([page.context().waitForEvent('page'), page.click('#report-link')]);
    await report.locator('.verdict-word').waitFor({ timeout: 15_000 });
    expect(await report.textContent('.verdict-word')).to.equal('NOT CONFORMANT');
    await report.close();
  });

  it('has no critical or serious accessibility violation on any tab (axe-core)', async () => {
    const found: string[] = [];
    for (const tab of ['journal', 'records', 'personas']) {
      await page.click(`#tab-${tab}`);
      await page.locator(`#tab-${tab}[aria-selected="true"]`).waitFor();
      if (tab === 'records') await page.locator('#r-body tr').first().waitFor();
      found.push(...(await seriousViolations(page, `the dashboard's ${tab} tab`)).map((v) => `${tab}: ${v}`));
    }
    await page.click('#tab-journal');
    expect(found).to.deep.equal([]);
  });

  it('loads nothing from outside its origin and logs no error', () => {
    expect(b?.outside).to.deep.equal([]);
    expect(b?.problems).to.deep.equal([]);
  });
});

describe('dashboard behind an admin token, in headless Chromium', function () {
  this.timeout(60_000);
  const TOKEN = 'a-token-for-the-browser-test';

  it('asks for the token, refuses a wrong one, and then goes live with it sent as a header', async function () {
    skipWithoutChromium(this);
    const t = await startTest({ adminToken: TOKEN, records: 100 }, false);
    const b = await openBrowser(new URL(t.sim.baseUrl).origin);
    const seen: string[] = [];
    b.page.on('request', (r) => seen.push(r.url()));
    try {
      await b.page.goto(t.sim.dashboardUrl ?? '');
      await b.page.locator('#login').waitFor({ state: 'visible', timeout: 10_000 });
      await b.page.fill('#login-token', 'not-it');
      await b.page.click('#login button[type="submit"]');
      await b.page.locator('#login-err', { hasText: 'not the admin token' }).waitFor({ timeout: 10_000 });
      await shot(b.page, 'login');
      await b.page.fill('#login-token', TOKEN);
      await b.page.click('#login button[type="submit"]');
      await b.page.locator('#live-chip.live').waitFor({ timeout: 15_000 });
      expect(await b.page.isVisible('#login')).to.equal(false);
      const client = new Client(t.sim.baseUrl);
      await client.get('/ats/job-offers');
      await client.close();
      await b.page.locator('#j-body tr', { hasText: '/ats/job-offers' }).waitFor({ timeout: 10_000 });
      // A link could not carry the token: the page fetches the snapshot with it in a header.
      const [download] = await Promise.all([b.page.waitForEvent('download'), b.page.click('#d-export')]);
      const exported = await download.path();
      expect(parseSnapshot(readFileSync(exported, 'utf8')).store).to.deep.equal(t.store.dump());
      await b.page.locator('#d-snap', { hasText: 'Exported' }).waitFor();
      expect(seen.filter((u) => u.includes(TOKEN)), 'the token never goes into a URL').to.deep.equal([]);
      expect(b.outside).to.deep.equal([]);
      // The refused attempt logs the browser's own "401" line; nothing else may.
      expect(b.problems.filter((p) => !/status of 401/.test(p))).to.deep.equal([]);
    } finally {
      await b.close();
      await t.close();
    }
  });
});

describe('dashboard journal notes, in headless Chromium', function () {
  this.timeout(60_000);

  it('flags a token request that evicted tokens, and shows the note atop its detail', async function () {
    skipWithoutChromium(this);
    // Room for one token: the second login evicts the first, and its journal entry says so.
    const t = await startTest({ records: 20, maxTokens: 1 }, false);
    const b = await openBrowser(new URL(t.sim.baseUrl).origin);
    try {
      await b.page.goto(t.sim.dashboardUrl ?? '');
      await b.page.locator('#live-chip.live').waitFor({ timeout: 15_000 });
      await t.client.login();
      await t.client.login();
      const flagged = b.page.locator('#j-body tr', { has: b.page.locator('.note-mark') });
      await flagged.waitFor({ timeout: 10_000 });
      expect(await b.page.locator('#j-body tr .note-mark').count(), 'only the evicting request is flagged').to.equal(1);
      expect(await flagged.locator('td.wide').getAttribute('title')).to.match(/evicted 1 live token/);
      await flagged.click();
      await b.page.locator('#j-reqbody').waitFor({ timeout: 10_000 });
      expect(await b.page.textContent('#j-note')).to.match(/^The token store was full \(1 tokens\): evicted 1 live token/);
      expect(b.problems).to.deep.equal([]);
    } finally {
      await b.close();
      await t.close();
    }
  });
});
