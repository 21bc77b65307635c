import { expect } from 'chai';
import { allLimited } from './limit.js';

describe('allLimited (tasks side by side, a few at a time)', () => {
  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('never runs more than the limit at once, runs every task once, and keeps their order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: 7 }, (_, i) => async (): Promise<number> => {
      started.push(i);
      most = Math.max(most, ++running);
      for (let k = 0; k < 7 - i; k++) await tick(); // the first tasks end last
      running--;
      return i * 10;
    });
    expect(await allLimited(3, tasks)).to.deep.equal([0, 10, 20, 30, 40, 50, 60]);
    expect(most).to.equal(3);
    expect([...started].sort()).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
  });

  it('rejects with the first failure, and refuses a limit that is not a positive integer', async () => {
    const boom = new Error('boom');
    let error: unknown;
    await allLimited(2, [() => Promise.resolve(1), () => Promise.reject(boom)]).catch((e: unknown) => { error = e; });
    expect(error).to.equal(boom);
    for (const limit of [0, 1.5, -1]) {
      let refused: unknown;
      await allLimited(limit, []).catch((e: unknown) => { refused = e; });
      expect(refused, String(limit)).to.be.instanceOf(RangeError);
    }
  });
});
