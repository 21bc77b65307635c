// junit.xml must stay well-formed XML whatever a target wrote into its messages (issue #29 §4): every character
// XML 1.0 forbids (U+FFFE, U+FFFF, C0 controls, lone surrogates) is replaced, and the file is checked by parsing it.
import { expect } from 'chai';
import { minimalCase, minimalReport } from '../../test/support/reports.js';
import { summarise } from '../core/verdict.js';
import { junitXml } from './junit.js';
import { escapeXml } from './xml.js';
import { parseXml, type XmlElement } from '../../test/support/xml.js';


const find = (e: XmlElement, name: string): XmlElement[] => [...(e.name === name ? [e] : []), ...e.children.flatMap((c) => find(c, name))];

describe('junit.xml from hostile text', () => {
  // What a target may put into a message: noncharacters, C0 controls, lone surrogates of both halves, markup.
  const hostile = 'a\uFFFEb\uFFFFc\u0000d\u0001e\u001bf\uD800g\uDC00h<i>&j"k\'l';
  const kept = 'tab\tand a pair 😀 and ü';

  it('stays well-formed: every character XML 1.0 forbids is replaced by U+FFFD, the rest is kept as it was', () => {
    const c = minimalCase({
      id: `case.${hostile}`, title: kept, verdict: 'fail', file: `suites/${hostile}.yaml:3`,
      assertions: [{ clause: 'X.Y', level: 'MUST', passed: false, message: `${hostile} ${kept}`, check: 'c' }],
    });
    const skipped = minimalCase({ id: 'b.case', verdict: 'skip', reason: hostile });
    const report = { ...minimalReport([c, skipped]), summary: summarise([c, skipped]) };
    report.harness = { ...report.harness, version: `0.1.0${hostile}` };
    const xml = junitXml(report);
    const root = parseXml(xml);
    const failure = find(root, 'failure').find((f) => f.attributes['type'] === 'MUST');
    const replaced = 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh<i>&j"k\'l';
    expect(failure?.attributes['message']).to.equal(`MUST X.Y: ${replaced} ${kept}`);
    expect(find(root, 'skipped')[0]?.attributes['message']).to.equal(replaced);
    expect(root.attributes['name']).to.include(`0.1.0${replaced}`);
    expect(find(root, 'testcase').map((t) => t.attributes['name'])).to.include(`[MUST] case.${replaced}: ${kept}`);
  });

  it('escapes markup and replaces what XML cannot carry in one function, for the badge too', () => {
    expect(escapeXml('<a href="x">&\'\uFFFF\uD83D')).to.equal('&lt;a href=&quot;x&quot;&gt;&amp;&apos;\uFFFD\uFFFD');
    expect(escapeXml('😀\t\n\r')).to.equal('😀\t\n\r');
    expect(() => parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a b="\uFFFE"/>')).to.throw(/forbids: U\+FFFE/);
  });
});
