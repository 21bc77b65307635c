import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { RunReport } from '../engine/run.js';
import type { CaseResult } from '../core/results.js';
import { summarise } from '../core/verdict.js';
import { htmlReport } from './html.js';
import type { PageData } from './page-data.js';
import { ACCESS_TOKEN, CLIENT_SECRET, ruleBreakingReport } from '../../test/support/rule-breaker.js';
import { readBackReport } from '../../test/support/read-back.js';

const copy = (r: RunReport): RunReport => structuredClone(r);
/** The data the page embeds (exchanges, assertions, residue), unpacked as the page's script does. */
const dataOf = (html: string): PageData => {
  const packed = /<script type="application\/gzip\+base64" id="rdx-data">([^<]*)<\/script>/.exec(html)?.[1];
  if (!packed) throw new Error('no embedded data in the page');
  return JSON.parse(gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')) as PageData;
};
/** Everything the page can show: its markup and its data. */
const everything = (html: string): string => `${html}\n${JSON.stringify(dataOf(html))}`;
const caseOf = (r: RunReport, id: string): CaseResult => {
  const found = r.cases.find((c) => c.id === id);
  if (!found) throw new Error(`no case ${id} in the report`);
  return found;
};

describe('report.html', function () {
  this.timeout(30_000);
  let report: RunReport;
  let html: string;

  before(async () => {
    report = await ruleBreakingReport('^token\\.issued |^auth\\.no-header\\.list-job-offers |^job-offers\\.unknown-id\\.get |^auth\\.expired-token |^auth\\.token-in-query ');
    html = htmlReport(report);
  });

  it('states the verdict, counts, harness version, spec hash, target, date, seed and run tag at the top', () => {
    const top = html.slice(0, html.indexOf('id="matrix"'));
    // The report's own verdict and counts: a filtered run with MUST failures, and the MUST cases the filter left out.
    expect(report.summary).to.include({ verdict: 'NOT_CONFORMANT' });
    expect(report.summary.mustFailures).to.be.greaterThan(0);
    expect(report.summary.unjudgedMust).to.be.greaterThan(100);
    expect(top).to.include('<div class="verdict-word">NOT CONFORMANT</div>');
    const why = /<div class="verdict-why">([^<]*)<\/div>/.exec(top)?.[1] ?? '';
    expect(why).to.include(`${report.summary.mustFailures} MUST failure(s)`).and.include(`${report.summary.unjudgedMust} MUST case(s) not judged`);
    expect(top).to.include(`rdx-conformance ${report.harness.version}`);
    expect(top).to.include(`<abbr title="${report.spec.hash}"><code>${report.spec.hash.slice(0, 12)}</code></abbr>`);
    expect(top).to.include(report.run.target.baseUrl).and.include(report.run.runTag).and.include(report.run.startedAt.slice(0, 10));
    expect(top).to.include(`(up to ${String(report.run.concurrency)} cases side by side)`);
    expect(top).to.match(/<dt>Seed<\/dt><dd>1<\/dd>/);
    expect(html).to.match(/<section id="counts"><h2>Counts<\/h2><table class="counts">/);
  });

  it('puts what blocks certification first: the failures, one line each under the verdict, then the MUST cases not judged, then the matrix and the profile', () => {
    const at = (marker: string): number => {
      const i = html.indexOf(marker);
      expect(i, marker).to.be.greaterThan(0);
      return i;
    };
    const order = ['class="verdict-word"', '<ol class="blockers"', '<section id="failures">', '<section id="not-judged">', '<section id="matrix">', '<section id="profile">', '<section id="cases">'].map(at);
    expect(order).to.deep.equal([...order].sort((a, b) => a - b));
    const top = html.slice(at('<ol class="blockers"'), html.indexOf('</ol>', at('<ol class="blockers"')));
    expect(top).to.include('<a href="#failure-job-offers.unknown-id.get">').and.include('<code class="clause">ENVELOPE.MESSAGE</code>');
  });

  it('groups the failures at the top by clause and finding, with the clause\'s level and each case\'s failing step', () => {
    const many = copy(report);
    const broken = caseOf(many, 'job-offers.unknown-id.get');
    // Three cases with the one defect read as one group of three; a SHOULD case whose MUST clause broke is a MUST line.
    many.cases.push({ ...structuredClone(broken), id: 'copy.one' }, { ...structuredClone(broken), id: 'copy.two', level: 'SHOULD' });
    const out = htmlReport(many);
    const top = out.slice(out.indexOf('<ol class="blockers"'), out.indexOf('</ol>', out.indexOf('<ol class="blockers"')));
    const groups = top.split('<li>').slice(1);
    const message = groups.filter((g) => g.includes('<code class="clause">ENVELOPE.MESSAGE</code>'));
    expect(message).to.have.length(1);
    expect(message[0]).to.match(/<span class="level">MUST<\/span> <code class="clause">ENVELOPE\.MESSAGE<\/code> — 3 cases: <bdi>status 404: message is missing/);
    expect(message[0]).to.include('<a href="#failure-copy.two"><code>copy.two</code></a> <span class="muted">step 2 GET /ats/job-offers/{id}</span>');
    expect(top).to.not.include('>SHOULD<');
  });

  it('lists every MUST case not judged with what would unlock it, as summary.toComplete says', () => {
    const section = (out: string): string => out.slice(out.indexOf('<section id="not-judged">'), out.indexOf('</section>', out.indexOf('<section id="not-judged">')));
    const shown = section(html);
    // The run was filtered (--grep): the cases it left out are unjudged, and the page counts them as report.json does.
    const { unjudgedMust, toComplete } = report.summary;
    expect(shown).to.include(`(${unjudgedMust} MUST cases)`).and.not.include('Every MUST case was judged.');
    expect(toComplete.map((t) => t.unlock)).to.include('without filters');
    for (const t of toComplete) {
      expect(shown).to.include(`<code>${t.unlock}</code>`);
      for (const id of t.cases) expect(shown, id).to.include(`<code>${id}</code>`);
    }
    expect(toComplete.reduce((n, t) => n + t.cases.length, 0)).to.equal(unjudgedMust);
    // A case in the report links to its section; a case the filter left out has none to link to.
    const leftOut = toComplete.flatMap((t) => t.cases).find((id) => !report.cases.some((c) => c.id === id)) as string;
    expect(shown).to.not.include(`href="#case-${leftOut}"`);
    const skipped = copy(report);
    const c = skipped.cases.find((x) => x.level === 'MUST' && x.verdict === 'pass') as CaseResult;
    c.verdict = 'skip';
    c.reason = 'needs fixtures.jobOfferId';
    c.unlock = { unlock: 'fixtures.jobOfferId', how: 'name a job offer in the profile' };
    skipped.summary = summarise(skipped.cases, { notRun: report.summary.toComplete.flatMap((t) => t.cases.map((id) => ({ id, unlock: t }))) });
    expect(section(htmlReport(skipped))).to.include(`(${unjudgedMust + 1} MUST cases)`).and.include('<code>fixtures.jobOfferId</code> name a job offer in the profile')
      .and.include(`href="#case-${c.id}"`);
  });

  it('loads nothing: no external reference, and a policy that pins its one script and one stylesheet by hash', () => {
    expect(html).to.not.match(/\s(src|srcset)=/);
    expect(html).to.not.match(/href="(?!#)/);
    expect(html).to.not.match(/@import|url\(/);
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    const hash = (t: string): string => createHash('sha256').update(t).digest('base64');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1]?.replace(/&#39;/g, "'") ?? '';
    expect(policy).to.include(`script-src 'sha256-${hash(script)}'`).and.include(`style-src 'sha256-${hash(style)}'`).and.include("default-src 'none'");
  });

  it('keeps secrets out and puts environment variables in the curl lines', () => {
    expect(everything(html)).to.not.include(ACCESS_TOKEN).and.not.include(CLIENT_SECRET);
    const curls = Object.values(dataOf(html).exchanges).flat().map((x) => x.curl);
    expect(curls.some((c) => c.includes('"authorization: Bearer $RDX_ACCESS_TOKEN"'))).to.equal(true);
    expect(curls.some((c) => c.includes(`client_secret":"'"$RDX_CLIENT_SECRET"'"`))).to.equal(true);
  });

  it('shows a failure with its clause, its words in the spec, the finding and the exchange it rests on', () => {
    const start = html.indexOf('id="failure-job-offers.unknown-id.get"');
    expect(start).to.be.greaterThan(0);
    const card = html.slice(start, html.indexOf('</article>', start));
    expect(card).to.include('<code class="clause">ENVELOPE.MESSAGE</code>');
    expect(card).to.include('“message | string | always”');
    expect(card).to.include('status 404: message is missing');
    // The exchange itself is data, drawn into the card's slot by the page's script.
    expect(card).to.match(/<div class="slot" data-slot="exchange" data-ex="\d+">/);
    const index = Number(/data-slot="exchange" data-ex="(\d+)"/.exec(card)?.[1]);
    const ex = dataOf(html).exchanges['job-offers.unknown-id.get']?.[index];
    expect(ex?.status).to.equal('HTTP 404 Not Found');
    expect(ex?.request).to.match(/^GET http:\/\/127\.0\.0\.1:/);
    expect(ex?.responseBody).to.include('"no such record"');
  });

  it('keeps exchanges, assertion tables and long ledgers out of the markup, once each in the data', () => {
    expect(html).to.not.include('class="exchange"').and.not.include('<table class="assertions">');
    const data = dataOf(html);
    for (const c of report.cases) {
      expect(data.exchanges[c.id] ?? [], c.id).to.have.length(c.exchanges.length);
      expect(data.assertions[c.id] ?? [], c.id).to.have.length(c.assertions.length);
    }
    const r = copy(report);
    r.residue = Array.from({ length: 60 }, (_, i) => ({ resource: 'job-offer', operationId: 'batchCreateJobOffers', reference: `${r.run.runTag}-${i}-JO`, caseId: 'token.issued', createdAt: r.run.startedAt, deleted: false }));
    const out = htmlReport(r);
    expect(out).to.not.include(`${r.run.runTag}-59-JO`);
    expect(dataOf(out).residue[59]?.[2]).to.equal(`${r.run.runTag}-59-JO`);
  });

  it('draws 21 endpoint rows and a failing cell that links to a filtered view', () => {
    const matrix = html.slice(html.indexOf('<table class="matrix">'), html.indexOf('</table>', html.indexOf('<table class="matrix">')));
    expect(matrix.match(/<tr><th class="n">\d+<\/th>/g)).to.have.length(21);
    expect(matrix).to.match(/<td class="cell v-fail"><a href="#cell=4:envelope" data-cell="4:envelope"[^>]*>1 fail<\/a>/);
    expect(html).to.match(/id="failure-job-offers\.unknown-id\.get" data-id="job-offers\.unknown-id\.get" data-verdict="fail" [^>]*data-cells="[^"]*4:envelope/);
    // The counts of a cell, worst first, and the target's answer times on the endpoint's row.
    expect(matrix).to.match(/<td class="cell v-pass"><a [^>]*>\d+ ✓<\/a>/);
    const timed = report.latency['3'];
    expect(timed).to.be.an('object');
    expect(matrix).to.include(`<td class="lat" title="${timed?.count} answers timed">${timed?.p50Ms}</td><td class="lat">${timed?.p95Ms}</td><td class="lat">${timed?.maxMs}</td>`);
    expect(html).to.include('this is not a load test');
  });

  it('escapes whatever a hostile target sends', () => {
    const r = copy(report);
    const ex = caseOf(r, 'job-offers.unknown-id.get').exchanges[0];
    if (!ex?.response) throw new Error('no response to poison');
    ex.response.body = '</pre><script>alert(1)</script><img src=x onerror=alert(2)>';
    delete ex.response.json;
    ex.response.headers['x-evil'] = '"><script>alert(3)</script>';
    const out = htmlReport(r);
    expect(out.match(/<script>/g)).to.have.length(1);
    expect(out).to.not.include('<img').and.not.include('alert(');
    // In the data, where the page's script puts it into the page as text (textContent), never as markup.
    expect(dataOf(out).exchanges['job-offers.unknown-id.get']?.[0]?.responseBody).to.equal('</pre><script>alert(1)</script><img src=x onerror=alert(2)>');
  });

  it('cuts a huge body in the page and says where the whole one is', () => {
    const r = copy(report);
    const ex = caseOf(r, 'job-offers.unknown-id.get').exchanges[0];
    if (!ex?.response) throw new Error('no response');
    ex.response.body = 'x'.repeat(200_000);
    delete ex.response.json;
    const body = dataOf(htmlReport(r)).exchanges['job-offers.unknown-id.get']?.[0]?.responseBody ?? '';
    expect(body).to.match(/cut at 64 KiB here; report\.json has the 200000 characters the run kept$/);
    expect(body.length).to.be.lessThan(70_000);
  });

  it('names $RDX_EXPIRED_TOKEN in the curl line of an expired-token case', () => {
    const r = copy(report);
    const c = caseOf(r, 'auth.expired-token');
    c.verdict = 'warn';
    c.exchanges = [{ step: 'list', request: { method: 'GET', url: 'http://127.0.0.1:1/ats/job-offers', headers: { authorization: 'Bearer ***' }, auth: 'expired' }, startedAt: r.run.startedAt, elapsedMs: 1, response: { status: 200, headers: {}, body: '{}' } }];
    c.assertions = [{ clause: 'AUTH.EXPIRED_TOKEN_REFUSED', level: 'SHOULD', passed: false, message: 'accepted with status 200', exchange: 0, check: 'refused' }];
    expect(dataOf(htmlReport(r)).exchanges['auth.expired-token']?.[0]?.curl).to.include('"authorization: Bearer $RDX_EXPIRED_TOKEN"');
  });

  it('highlights a declared choice that differs from what was observed', () => {
    const r = copy(report);
    const p = r.implementationProfile.find((x) => x.id === 'STATUS_CODES');
    if (!p) throw new Error('no STATUS_CODES in the profile');
    p.declared = { notFound: 410 };
    const out = htmlReport(r);
    expect(out).to.match(/<tr class="mismatch"><td><code>STATUS_CODES<\/code>[\s\S]*?notFound = <bdi>404<\/bdi><\/code> <b>≠ declared<\/b>[\s\S]*?differs from declared/);
  });

  it('lists known failures with their reason, apart from the failures that count, and the baseline file', () => {
    const r = copy(report);
    const c = caseOf(r, 'job-offers.unknown-id.get');
    c.baseline = { reason: 'ticket RDX-42: 404 body lacks message', expires: '2027-01-01' };
    // Only the cases the run judged, so the verdict is the baseline's (the full run is in the consistency test).
    r.summary = summarise(r.cases);
    r.baseline = { file: 'rdx.baseline.yaml', entries: 2, unexpectedPasses: ['token.issued'], expired: [] };
    const out = htmlReport(r);
    // Excused failures are never a certificate.
    expect(out).to.include('<div class="verdict-word">KNOWN FAILURES</div>');
    expect(out).to.not.include('id="failure-job-offers.unknown-id.get"');
    const known = out.slice(out.indexOf('<section id="known">'));
    expect(known).to.include('ticket RDX-42: 404 body lacks message').and.include('2027-01-01').and.include('rdx.baseline.yaml').and.include('token.issued');
  });

  it('lists the residue ledger and warns when the report was judged against another spec', () => {
    const r = copy(report);
    r.residue = [{ resource: 'job-offer', operationId: 'batchCreateJobOffers', reference: `${r.run.runTag}-1-JO`, caseId: 'token.issued', createdAt: r.run.startedAt, deleted: false }];
    r.spec.hash = '0'.repeat(64);
    const out = htmlReport(r);
    expect(out).to.include(`<code><bdi>${r.run.runTag}-1-JO</bdi></code>`);
    expect(out).to.match(/This report was judged against spec <code>000000000000<\/code>/);
  });
});

describe('report.html: the cause before the symptom, and exploration', function () {
  this.timeout(60_000);
  let report: RunReport;
  let html: string;
  const card = (out: string, id: string): string => {
    const start = out.indexOf(`<article class="case card v-fail" id="failure-${id}"`);
    expect(start, id).to.be.greaterThan(0);
    return out.slice(start, out.indexOf('</article>', start));
  };

  before(async () => {
    report = await readBackReport();
    html = htmlReport(report);
  });

  it('shows the PATCH that caused a read-back failure before the GET that showed it, then a script replaying the case up to that GET', () => {
    const c = card(html, 'job-offers.create-read-replace-patch');
    const broken = caseOf(report, 'job-offers.create-read-replace-patch').assertions.find((a) => !a.passed && a.clause === 'WRITE.PATCH_PARTIAL');
    const read = broken?.exchange as number;
    const write = caseOf(report, 'job-offers.create-read-replace-patch').exchanges.map((e) => e.request.method).lastIndexOf('PATCH');
    expect(write).to.be.greaterThan(0).and.lessThan(read);
    const at = (marker: string): number => {
      const i = c.indexOf(marker);
      expect(i, marker).to.be.greaterThan(0);
      return i;
    };
    const order = [
      at('<code class="clause">WRITE.PATCH_PARTIAL</code>'),
      at(`<b>The write that caused it:</b> step ${write + 1} PATCH /ats/job-offers/{id}</p><div class="slot" data-slot="exchange" data-ex="${write}">`),
      at(`<b>The read that showed it:</b> step ${read + 1} GET /ats/job-offers/{id}</p><div class="slot" data-slot="exchange" data-ex="${read}">`),
      at(`<div class="slot" data-slot="script" data-upto="${read}">`),
    ];
    expect(order).to.deep.equal([...order].sort((a, b) => a - b));
    // The write is evidence now, not one of the "other exchanges" folded away.
    const others = c.slice(c.indexOf('other exchange'));
    expect(others).to.not.include(`data-ex="${write}"`);
  });

  it('groups the failures at the top by the write that caused them: one group for the one PATCH bug', () => {
    const top = html.slice(html.indexOf('<ol class="blockers"'), html.indexOf('</ol>', html.indexOf('<ol class="blockers"')));
    expect(top.split('<li>').slice(1)).to.have.length(1);
    expect(top).to.include('<span class="cause">caused by a <b>PATCH</b>:</span> <code class="clause">WRITE.PATCH_PARTIAL</code>, <code class="clause">WRITE.READ_BACK</code> — 5 cases');
    expect(top).to.match(/step \d+ PATCH \/ats\/application-steps\/\{id\} → step \d+ GET \/ats\/application-steps\/\{id\}/);
  });

  it('shows a failing explore case\'s seed, sequences, requests, shrinks, steps, its whole sequence as a script and its regression YAML, escaped, with a copy button', () => {
    const x = caseOf(report, 'explore.application-steps');
    const e = x.explore;
    expect(e?.regression).to.match(/^format: 1\n/);
    const c = card(html, 'explore.application-steps');
    for (const [dt, dd] of [['Seed', e?.seed], ['Sequences', e?.sequences], ['Requests', e?.requests], ['Shrinks', e?.shrinks], ['Steps', e?.steps]]) {
      expect(c).to.match(new RegExp(`<dt>${String(dt)}</dt><dd>${String(dd)}</dd>`));
    }
    expect(c).to.include(`<div class="slot" data-slot="script" data-upto="${x.exchanges.length - 1}">`);
    // What the shrunk sequence holds is drawn (markup often): none of its lines that hold markup reaches the page raw.
    for (const line of (e?.regression ?? '').split('\n').filter((l) => /[<>&]/.test(l))) expect(c).to.not.include(line);
    expect(c).to.match(/<pre tabindex="0" dir="ltr"><code>format: 1\n/);
    expect(c).to.include(`class="copy" data-copy="${x.explore?.regression?.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}" hidden>Copy</button>`);
  });

  it('shows a passing explore case\'s figures in the list of all cases', () => {
    const e = caseOf(report, 'explore.credentials');
    expect(e.verdict).to.equal('pass');
    const row = html.slice(html.indexOf('id="case-explore.credentials"'), html.indexOf('</details>', html.indexOf('id="case-explore.credentials"')));
    expect(row).to.include(`<dt>Seed</dt><dd>${e.explore?.seed}</dd>`).and.include(`<dt>Requests</dt><dd>${e.explore?.requests}</dd>`);
  });

  it('escapes a crafted regression in the markup and marks its invisible characters', () => {
    const crafted = copy(report);
    const x = caseOf(crafted, 'explore.application-steps');
    (x.explore as { regression: string }).regression = '</code></pre><script>alert(1)</script>"\'\u202e';
    const c = card(htmlReport(crafted), 'explore.application-steps');
    expect(c).to.not.include('<script>');
    expect(c).to.include('&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;');
    expect(c).to.include('<span class="invisible"');
  });
});
