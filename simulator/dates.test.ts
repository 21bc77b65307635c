import { expect } from 'chai';
import { parseIsoDate } from './dates.js';

const DAY = 86_400_000;

describe('simulator dates', () => {
  it('reads the same date the same way however often and in whatever order it comes (reads are remembered)', () => {
    const start = Date.UTC(2020, 0, 1);
    // More distinct texts than are remembered, each read twice, with dates that do not exist in between.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 6000; i++) {
        const ms = start + i * DAY;
        const text = new Date(ms).toISOString().slice(0, 10);
        expect(parseIsoDate(text), text).to.deep.equal({ ms, dateOnly: true });
        expect(parseIsoDate(`${text}T09:30:00+02:00`)?.ms, `${text} with a time`).to.equal(ms + 7.5 * 3_600_000);
        expect(parseIsoDate(`${text.slice(0, 8)}3${i % 2 === 0 ? '2' : '3'}`), 'day 32 or 33').to.equal(undefined);
      }
    }
    expect(parseIsoDate('2024-02-29')?.ms).to.equal(Date.UTC(2024, 1, 29));
    expect(parseIsoDate('2026-02-29')).to.equal(undefined);
  });

  it('gives a read that callers cannot change for the next caller', () => {
    const first = parseIsoDate('2026-03-01') as { ms: number };
    expect(() => {
      first.ms = 0;
    }).to.throw(TypeError);
    expect(parseIsoDate('2026-03-01')?.ms).to.equal(Date.UTC(2026, 2, 1));
  });
});
