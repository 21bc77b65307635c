// `rdx simulate --state FILE` saving a large store (issue #29 §7): how long one save holds the event loop, written
// in one go (the whole JSON text, then a synchronous write: how it was) and in pieces (StateFile now). Requests
// wait for as long as the loop is held, so the longest gap between two turns of the loop during a save is the figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedStore } from '../simulator/seed.js';
import { snapshotSource, snapshotText, writeFileAtomic } from '../simulator/snapshot.js';
import { StateFile } from '../simulator/state.js';
import { Store } from '../simulator/store.js';
import type { BenchSection, Table } from './run.js';

const RECORDS = Number(process.env['RDX_BENCH_STATE_RECORDS'] ?? 200_000);
const SAVES = 3;

/** Runs `save` while the event loop turns (setImmediate after setImmediate): the longest gap, and the whole save. */
async function loopHeld(save: () => Promise<void> | void): Promise<{ longestMs: number; totalMs: number }> {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const turn = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  const started = performance.now();
  await save();
  const totalMs = performance.now() - started;
  // The turn that could not run during a synchronous save runs now: its gap is the block.
  await new Promise((resolve) => setImmediate(resolve));
  running = false;
  return { longestMs: longest, totalMs };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function saves(): Promise<Table> {
  const dir = mkdtempSync(join(tmpdir(), 'rdx-bench-state-'));
  try {
    const store = new Store();
    seedStore(store, 1, RECORDS);
    const meta = { seed: 1, records: RECORDS };
    const file = join(dir, 'state.json');
    const whole: { longestMs: number; totalMs: number }[] = [];
    const pieces: { longestMs: number; totalMs: number }[] = [];
    const state = new StateFile(file, () => snapshotSource(store, meta));
    for (let i = 0; i < SAVES; i++) {
      whole.push(await loopHeld(() => writeFileAtomic(file, snapshotText(store, meta))));
      pieces.push(await loopHeld(async () => {
        state.changed();
        await state.flush();
      }));
    }
    await state.close();
    const bytes = Buffer.byteLength(snapshotText(store, meta));
    // The machine is shared: the ratio of the two, measured in alternation, says more than either figure.
    const held = (runs: { longestMs: number }[]): number => median(runs.map((r) => r.longestMs));
    const row = (name: string, runs: { longestMs: number; totalMs: number }[]): string[] => [
      name, `${held(runs).toFixed(0)} ms`, `${median(runs.map((r) => r.totalMs)).toFixed(0)} ms`,
      runs.map((r) => r.longestMs.toFixed(0)).join(', '), `${(held(runs) / held(whole)).toFixed(2)}×`,
    ];
    return {
      title: `--state: one save of ${RECORDS.toLocaleString('en')} records (${(bytes / 1024 ** 2).toFixed(0)} MiB of JSON), median of ${SAVES}`,
      columns: ['save', 'event loop held (longest)', 'whole save', 'each run, held', 'held vs in one go'],
      rows: [row('in one go (JSON text, then a synchronous write; before #29)', whole), row('in pieces (StateFile: slices between awaited writes)', pieces)],
      notes: ['at most one save per 200 ms while changes come in (SAVE_DELAY_MS); a request waits for at most the time the loop is held'],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const stateSection: BenchSection = {
  name: 'state',
  async run() {
    return [await saves()];
  },
};
