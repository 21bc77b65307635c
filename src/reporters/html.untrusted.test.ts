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
