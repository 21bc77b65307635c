// The phase attribution of bench/phases.ts on a profile written by hand: which samples count where.
import { expect } from 'chai';
import { PHASES, phaseTimes, type CpuProfile } from './phases.js';

const frame = (functionName: string, url = ''): { functionName: string; url: string } => ({ functionName, url });
const src = (file: string): string => `file:///work/x/build/src/${file}`;

describe('bench: where a run\'s time goes, by phase', () => {
  // root → runCase → sendOnce → writev; root → runCase → expectation → validate (a precompiled validator); idle; GC;
  // root → runCase alone (in no phase).
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
      { id: 2, callFrame: frame('runCase', src('engine/runner.js')), children: [3, 4] },
      { id: 3, callFrame: frame('sendOnce', src('http/client.js')), children: [5] },
      { id: 4, callFrame: frame('expectation', src('engine/expectations.js')), children: [8] },
      { id: 5, callFrame: frame('writev') },
      { id: 6, callFrame: frame('(idle)') },
      { id: 7, callFrame: frame('(garbage collector)') },
      { id: 8, callFrame: frame('validate12', src('spec/validators/job-offer.cjs')) },
    ],
    samples: [5, 5, 8, 6, 6, 6, 7, 2],
    timeDeltas: [1000, 1000, 2000, 3000, 3000, 3000, 500, 4000],
  };

  it('counts a sample in every phase a frame of its stack belongs to, idle apart, the rest as other', () => {
    const times = phaseTimes(profile);
    const ms = Object.fromEntries(times.phases.map((p) => [p.name, p.ms]));
    expect(times.totalMs).to.equal(17.5);
    expect(times.idleMs).to.equal(9);
    expect(ms['sending (client, undici, decoding, JSON.parse)'], 'the writes are under sendOnce').to.equal(2);
    expect(ms['socket writes (the send system calls)']).to.equal(2);
    expect(ms['judging: expect blocks and named checks']).to.equal(2);
    expect(ms['schema validation (precompiled validators)']).to.equal(2);
    expect(ms['garbage collector']).to.equal(0.5);
    expect(ms['judging: global checks']).to.equal(0);
    expect(times.otherMs, 'runCase alone').to.equal(4);
  });

  it('names every phase once', () => {
    expect(new Set(PHASES.map(([name]) => name)).size).to.equal(PHASES.length);
  });
});
