// report.html from a report file someone else wrote (issue #29 §4): rdx report renders what it reads, so every field
// it shows is escaped, counts included. rdx report refuses such a file first (src/core/report.ts); this holds the
// page to it even for a report that gets past the reader.
import { expect } from 'chai';
import type { RunReport } from '../core/report.js';
import { minimalCase, minimalReport } from '../../test/support/reports.js';
import { htmlReport } from './html.js';

describe('report.html from a crafted report file', () => {
  it('writes a crafted baseline.entries as text: no <meta http-equiv=refresh> reaches the page', () => {
    const c = minimalCase({ verdict: 'fail', baseline: { reason: 'known' }, assertions: [{ clause: 'X.Y', level: 'MUST', passed: false, message: 'm', check: 'c' }] });
    const refresh = '<meta http-equiv="refresh" content="0;url=https://example.org/">';
    const report = { ...minimalReport([c]), baseline: { file: 'b.yaml', entries: refresh as unknown as number, unexpectedPasses: [], expired: [] } } satisfies RunReport;
    const html = htmlReport(report);
    expect(html).to.not.include('<meta http-equiv="refresh"').and.not.match(/<meta[^>]*refresh/i);
    expect(html).to.include('&lt;meta http-equiv=&quot;refresh&quot; content=&quot;0;url=https://example.org/&quot;&gt; entries');
  });
});

describe('report.html and text that hides itself (issue 37 §3)', () => {
  it('isolates a target\'s messages and reasons in <bdi> and marks every zero-width, bidi and tag character', () => {
    const disguised = 'status 500\u202e\u2066 ssap\u200b\u2060\ufeff\u{e0041}';
    const c = minimalCase({ verdict: 'fail', reason: disguised, assertions: [{ clause: 'X.Y', level: 'MUST', passed: false, message: disguised, check: 'c' }] });
    const html = htmlReport(minimalReport([c]));
    // Outside the packed data, no invisible character is left in the page.
    const page = html.replace(/<script[^>]*>[^<]*<\/script>/g, '');
    expect(page).to.not.match(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\u{e0041}/u);
    const shown = '<bdi>status 500<span class="invisible" title="an invisible character the target sent">U+202E</span>';
    expect(page).to.include(`<p class="reason">${shown}`);
    expect(page).to.include(`<b>Expected, and what came back:</b> ${shown}`);
    for (const mark of ['U+2066', 'U+200B', 'U+2060', 'U+FEFF', 'U+E0041']) expect(page).to.include(`>${mark}</span>`);
  });
});
