import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { RunReport } from '../engine/run.js';
import type { CaseResult } from '../core/results.js';
import { htmlReport } from './html.js';
import { summaryOf } from './merge.js';
import { ACCESS_TOKEN, CLIENT_SECRET, ruleBreakingReport } from './rule-breaker.test.js';

const copy = (r: RunReport): RunReport => structuredClone(r);
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
    expect(top).to.include('<div class="verdict-word">NOT CONFORMANT</div>');
    expect(top).to.include(`rdx-conformance ${report.harness.version}`);
    expect(top).to.include(`<abbr title="${report.spec.hash}"><code>${report.spec.hash.slice(0, 12)}</code></abbr>`);
    expect(top).to.include(report.run.target.baseUrl).and.include(report.run.runTag).and.include(report.run.startedAt.slice(0, 10));
    expect(top).to.match(/<dt>Seed<\/dt><dd>1<\/dd>/);
    expect(top).to.match(/<table class="counts">/);
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
    expect(html).to.not.include(ACCESS_TOKEN).and.not.include(CLIENT_SECRET);
    expect(html).to.include('&quot;authorization: Bearer $RDX_ACCESS_TOKEN&quot;');
    expect(html).to.include('client_secret&quot;:&quot;&#39;&quot;$RDX_CLIENT_SECRET&quot;&#39;&quot;');
  });

  it('shows a failure with its clause, its words in the spec, the finding and the exchange it rests on', () => {
    const start = html.indexOf('id="failure-job-offers.unknown-id.get"');
    expect(start).to.be.greaterThan(0);
    const card = html.slice(start, html.indexOf('</article>', start));
    expect(card).to.include('<code class="clause">ENVELOPE.MESSAGE</code>');
    expect(card).to.include('“message | string | always”');
    expect(card).to.include('status 404: message is missing');
    expect(card).to.include('HTTP 404 Not Found').and.include('GET http://127.0.0.1:');
    expect(card).to.include('&quot;no such record&quot;');
  });

  it('draws 21 endpoint rows and a failing cell that links to a filtered view', () => {
    const matrix = html.slice(html.indexOf('<table class="matrix">'), html.indexOf('</table>', html.indexOf('<table class="matrix">')));
    expect(matrix.match(/<tr><th class="n">\d+<\/th>/g)).to.have.length(21);
    expect(matrix).to.match(/<td class="cell v-fail"><a href="#cell=4:envelope" data-cell="4:envelope"/);
    expect(html).to.match(/id="failure-job-offers\.unknown-id\.get" data-verdict="fail" [^>]*data-cells="[^"]*4:envelope/);
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
    expect(out).to.not.include('<img');
    expect(out).to.include('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('cuts a huge body in the page and says where the whole one is', () => {
    const r = copy(report);
    const ex = caseOf(r, 'job-offers.unknown-id.get').exchanges[0];
    if (!ex?.response) throw new Error('no response');
    ex.response.body = 'x'.repeat(200_000);
    delete ex.response.json;
    const out = htmlReport(r);
    expect(out).to.include('cut at 64 KiB here; report.json has the 200000 characters the run kept');
    expect(out.length).to.be.lessThan(htmlReport(report).length + 3 * 70_000);
  });

  it('names $RDX_EXPIRED_TOKEN in the curl line of an expired-token case', () => {
    const r = copy(report);
    const c = caseOf(r, 'auth.expired-token');
    c.verdict = 'warn';
    c.exchanges = [{ step: 'list', request: { method: 'GET', url: 'http://127.0.0.1:1/ats/job-offers', headers: { authorization: 'Bearer ***' }, auth: 'expired' }, startedAt: r.run.startedAt, elapsedMs: 1, response: { status: 200, headers: {}, body: '{}' } }];
    c.assertions = [{ clause: 'AUTH.EXPIRED_TOKEN_REFUSED', level: 'SHOULD', passed: false, message: 'accepted with status 200', exchange: 0, check: 'refused' }];
    expect(htmlReport(r)).to.include('&quot;authorization: Bearer $RDX_EXPIRED_TOKEN&quot;');
  });

  it('highlights a declared choice that differs from what was observed', () => {
    const r = copy(report);
    const p = r.implementationProfile.find((x) => x.id === 'STATUS_CODES');
    if (!p) throw new Error('no STATUS_CODES in the profile');
    p.declared = { notFound: 410 };
    const out = htmlReport(r);
    expect(out).to.match(/<tr class="mismatch"><td><code>STATUS_CODES<\/code>[\s\S]*?notFound = 404<\/code> <b>≠ declared<\/b>[\s\S]*?differs from declared/);
  });

  it('lists known failures with their reason, apart from the failures that count, and the baseline file', () => {
    const r = copy(report);
    const c = caseOf(r, 'job-offers.unknown-id.get');
    c.baseline = { reason: 'ticket RDX-42: 404 body lacks message', expires: '2027-01-01' };
    r.summary = summaryOf(r.cases);
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
    expect(out).to.include(`<code>${r.run.runTag}-1-JO</code>`);
    expect(out).to.match(/This report was judged against spec <code>000000000000<\/code>/);
  });
});
