// What a started simulator shows its users: no store, journal or chaos of its own (issue 41 §5). Tests look into the
// store and the journal through internalsOf (test/support/simulator.ts); chaos changes through the admin service.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startSimulator } from './index.js';
import { internalsOf } from '../test/support/simulator.js';

describe('the simulator\'s public surface', () => {
  it('holds no store, journal or chaos; internalsOf reaches the store and the journal', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, records: 10 });
    try {
      for (const inner of ['store', 'journal', 'chaos']) expect(sim, inner).not.to.have.property(inner);
      expect(internalsOf(sim).store.jobOffers.size).to.be.above(0);
      expect(internalsOf(sim).journal.entries()).to.be.an('array');
      expect(() => internalsOf({})).to.throw(/not a simulator/);
    } finally {
      await sim.close();
    }
  });

  it('declares no store, journal or chaos, and does not name the internals module', () => {
    const declared = readFileSync(new URL('./index.d.ts', import.meta.url), 'utf8');
    expect(declared).not.to.match(/\b(store|journal|chaos)\s*:/);
    expect(declared).not.to.match(/internals\.js|journal\.js|store\.js/);
  });
});
