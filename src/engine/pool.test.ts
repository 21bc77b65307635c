import { expect } from 'chai';
import { CasePool } from './pool.js';
import type { Verdict } from '../core/results.js';

interface Planned {
  id: string;
  file: string;
  requires: string[];
  group?: string;
  alone?: boolean;
}

const planned = (id: string, more: Partial<Planned> = {}): Planned => ({ id, file: 'suites/x.yaml', requires: [], ...more });

/**
 * Runs the plan in a pool whose cases end when the test says (each case waits for its own release), and records
 * what was under way at each start.
 */
function harness(cases: Planned[], concurrency: number) {
  const running = new Set<string>();
  const starts: { id: string; beside: string[] }[] = [];
  const release = new Map<string, () => void>();
  const pool = new CasePool<{ verdict: Verdict }>(cases, concurrency, (c) => {
    starts.push({ id: c.id, beside: [...running] });
    running.add(c.id);
    return new Promise((resolve) => {
      release.set(c.id, () => {
        running.delete(c.id);
        resolve({ verdict: 'pass' });
      });
    });
  });
  /** Ends a case and lets the pool start what follows (its then-callbacks run on the microtask queue). */
  const end = async (id: string): Promise<void> => {
    const r = release.get(id);
    if (!r) throw new Error(`${id} has not started`);
    r();
    await pool.outcome(id);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { pool, starts, running, end, started: () => starts.map((s) => s.id) };
}

describe('case pool (rdx run --concurrency)', () => {
  it('at concurrency 1 runs the cases one after another in the plan order', async () => {
    const cases = [planned('a'), planned('b', { requires: ['a'] }), planned('c', { group: 'g' }), planned('d', { alone: true }), planned('e', { group: 'g' })];
    const h = harness(cases, 1);
    h.pool.start();
    for (const c of cases) {
      expect(h.running.size).to.equal(1);
      await h.end(c.id);
    }
    expect(h.started()).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(h.starts.every((s) => s.beside.length === 0)).to.equal(true);
  });

  it('starts up to N cases at once, in plan order, and the next as one ends', async () => {
    const h = harness(['a', 'b', 'c', 'd', 'e'].map((id) => planned(id)), 3);
    h.pool.start();
    expect(h.started()).to.deep.equal(['a', 'b', 'c']);
    await h.end('b');
    expect(h.started()).to.deep.equal(['a', 'b', 'c', 'd']);
    await h.end('a');
    expect(h.started()).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
  });

  it('starts a case only once its earlier prerequisites have ended, and lets later ready cases pass it meanwhile', async () => {
    const h = harness([planned('a'), planned('b', { requires: ['a'] }), planned('c')], 4);
    h.pool.start();
    expect(h.started()).to.deep.equal(['a', 'c']);
    await h.end('a');
    expect(h.started()).to.deep.equal(['a', 'c', 'b']);
  });

  it('runs the cases of one group one at a time, in plan order, beside other cases', async () => {
    const h = harness([planned('u1', { group: 'users' }), planned('x'), planned('u2', { group: 'users' }), planned('u3', { group: 'users' })], 4);
    h.pool.start();
    expect(h.started()).to.deep.equal(['u1', 'x']);
    await h.end('x');
    expect(h.started()).to.deep.equal(['u1', 'x']);
    await h.end('u1');
    expect(h.started()).to.deep.equal(['u1', 'x', 'u2']);
    await h.end('u2');
    expect(h.started()).to.deep.equal(['u1', 'x', 'u2', 'u3']);
  });

  it('runs an alone case with nothing beside it, and starts nothing after it in the plan before it', async () => {
    const h = harness([planned('a'), planned('b'), planned('walk', { alone: true }), planned('c'), planned('d')], 4);
    h.pool.start();
    expect(h.started()).to.deep.equal(['a', 'b']);
    await h.end('a');
    expect(h.started()).to.deep.equal(['a', 'b']);
    await h.end('b');
    expect(h.started()).to.deep.equal(['a', 'b', 'walk']);
    await h.end('walk');
    expect(h.started()).to.deep.equal(['a', 'b', 'walk', 'c', 'd']);
    expect(h.starts.find((s) => s.id === 'walk')?.beside).to.deep.equal([]);
  });

  it('starts nothing once stopped (a bailed run); what is under way still ends, and what waits gets the stop\'s outcome', async () => {
    const h = harness(['a', 'b', 'c'].map((id) => planned(id)), 2);
    h.pool.start();
    h.pool.stop(() => ({ verdict: 'skip' }));
    await h.end('a');
    expect(h.started()).to.deep.equal(['a', 'b']);
    const idle = h.pool.idle();
    await h.end('b');
    await idle;
    // The case left waiting has the stop's outcome, so nothing awaiting it hangs.
    expect(await h.pool.outcome('c')).to.deep.equal({ verdict: 'skip' });
    expect(h.started()).to.deep.equal(['a', 'b']);
  });

  it('tells the progress watcher of each start and end with the verdict', async () => {
    const told: string[] = [];
    const pool = new CasePool([planned('a'), planned('b')], 2, async () => ({ verdict: 'fail' as Verdict }), {
      start: () => undefined, end: () => undefined,
      caseStarted: (c) => told.push(`start ${c.id} ${c.file}`),
      caseFinished: (c, verdict) => told.push(`end ${c.id} ${verdict}`),
    });
    await Promise.all([pool.outcome('a'), pool.outcome('b')]);
    expect(told).to.deep.equal(['start a suites/x.yaml', 'start b suites/x.yaml', 'end a fail', 'end b fail']);
  });

  it('refuses a concurrency that is not a whole number from 1', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) expect(() => new CasePool([], n, async () => ({ verdict: 'pass' as Verdict }))).to.throw(RangeError, /whole number from 1/);
  });
});
