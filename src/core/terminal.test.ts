import { expect } from 'chai';
import { escapeJsonForTerminal, escapeTerminal, replaceInvisible } from './terminal.js';

describe('escapeTerminal and text that hides itself (issue 37 §3)', () => {
  const hidden = ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff',
    '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u061c', '\u{e0000}', '\u{e0041}', '\u{e007f}'];

  it('writes every zero-width, bidi and tag character as a visible escape', () => {
    for (const c of hidden) {
      const code = (c.codePointAt(0) as number).toString(16);
      const shown = escapeTerminal(`pass${c}fail`);
      expect(shown, `U+${code}`).to.equal(code.length > 4 ? `pass\\u{${code}}fail` : `pass\\u${code.padStart(4, '0')}fail`);
    }
    expect(escapeTerminal('ok: ü, 日本, 🙂, é')).to.equal('ok: ü, 日本, 🙂, é');
  });

  it('keeps JSON valid and equal when it escapes them for a terminal, tag characters as surrogate pairs', () => {
    const json = JSON.stringify({ message: hidden.join('x') });
    const escaped = escapeJsonForTerminal(json);
    expect(escaped).to.not.match(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u061c]|[\u{e0000}-\u{e007f}]/u);
    expect(JSON.parse(escaped)).to.deep.equal(JSON.parse(json));
  });

  it('hands each invisible character and its offset to report.html\'s marker', () => {
    expect(replaceInvisible('a\u202eb\u{e0041}c', (c, at) => `[${at}:${c.length}]`)).to.equal('a[1:1]b[3:2]c');
  });
});
