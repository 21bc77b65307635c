// summarise() counts by strings a report file may have crafted: it must never write into Object.prototype.
import { expect } from 'chai';
import type { Level } from '../spec/index.js';
import { minimalCase } from '../../test/support/reports.js';
import { summarise } from './verdict.js';

describe('summarise (src/core/verdict.ts) on crafted cases', () => {
  afterEach(() => {
    // Should a regression pollute the prototype, leave no trace for the tests that follow.
    for (const key of ['fail', 'pass', 'known-failure']) delete (Object.prototype as Record<string, unknown>)[key];
  });

  it('counts a level or verdict named "__proto__" as a key like any other, and pollutes no prototype', () => {
    const cases = [
      minimalCase({ id: 'a', level: '__proto__' as Level, verdict: 'fail' }),
      minimalCase({ id: 'b', level: 'constructor' as Level, verdict: 'pass' }),
      minimalCase({ id: 'c', level: 'MUST', verdict: 'fail', baseline: { reason: 'known' } }),
    ];
    const s = summarise(cases);
    expect(({} as Record<string, unknown>)['fail'], 'Object.prototype.fail').to.equal(undefined);
    expect(Object.keys(Object.prototype)).to.deep.equal([]);
    expect(Object.entries(s.byLevel)).to.deep.equal([['__proto__', { fail: 1 }], ['constructor', { pass: 1 }], ['MUST', { 'known-failure': 1 }]]);
    expect(JSON.stringify(s.byLevel)).to.equal('{"__proto__":{"fail":1},"constructor":{"pass":1},"MUST":{"known-failure":1}}');
    expect(Object.hasOwn(s.byLevel, '__proto__')).to.equal(true);
    expect(s.byVerdict).to.deep.equal({ fail: 1, pass: 1, 'known-failure': 1 });
  });
});
