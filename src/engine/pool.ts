// Which case runs when (rdx run --concurrency N). Cases start in the plan's order, up to N at a time, except where
// they could disturb one another (suites/README.md, "Running side by side"):
// - a case waits for its prerequisites (requires) that come before it in the plan;
// - the cases of one `group` share state on the target: they run one at a time, in the plan's order;
// - an `alone` case reads what every other case may change: it starts once nothing else runs, and nothing starts
//   beside it; no case after it in the plan starts before it.
// With N = 1 this is exactly the plan's order, one case after another.
import type { ProgressCase, RunProgress } from '../core/progress.js';
import type { Verdict } from '../core/results.js';
import type { CaseDef } from './suite.js';

/** The concurrency of a run that names none: measured (npm run bench -- harness) to not slow a run against the embedded simulator. */
export const DEFAULT_CONCURRENCY = 8;
/** The most cases a run lets run side by side: more only opens more connections to one target. */
export const MAX_CONCURRENCY = 64;

type Scheduled = Pick<CaseDef, 'id' | 'file' | 'requires' | 'group' | 'alone'>;

interface Slot<T> {
  c: Scheduled;
  state: 'waiting' | 'running' | 'done';
  done: Promise<T>;
  resolve: (value: T) => void;
}

export class CasePool<T extends { verdict: Verdict }> {
  private readonly slots: Slot<T>[];
  private readonly byId = new Map<string, number>();
  /** Per group, the plan indexes of its cases, in order. */
  private readonly groups = new Map<string, number[]>();
  private running = 0;
  /** Every case before this index has started. */
  private first = 0;
  private stopped = false;
  private started = false;

  constructor(cases: readonly Scheduled[], private readonly concurrency: number, private readonly work: (c: Scheduled) => Promise<T>,
    private readonly progress?: RunProgress) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number from 1, not ${concurrency}`);
    this.slots = cases.map((c, i) => {
      this.byId.set(c.id, i);
      if (c.group !== undefined) this.groups.set(c.group, [...(this.groups.get(c.group) ?? []), i]);
      let resolve: (value: T) => void = () => undefined;
      const done = new Promise<T>((r) => {
        resolve = r;
      });
      return { c, state: 'waiting', done, resolve };
    });
  }

  /** Starts the first cases; the others start as those end. */
  start(): void {
    this.started = true;
    this.fill();
  }

  /** The outcome of a case of the pool, once it has run. */
  outcome(id: string): Promise<T> {
    const i = this.byId.get(id);
    if (i === undefined) throw new Error(`case ${id} is not in the run`);
    if (!this.started) this.start();
    return (this.slots[i] as Slot<T>).done;
  }

  /**
   * No case starts after this (a bailed or stopped run); those under way go on to their end. The outcome of each case
   * left waiting is `unrun`'s, so whatever still awaits one (a mocha test after a stop) ends rather than hangs.
   */
  stop(unrun: (c: Scheduled) => T): void {
    this.stopped = true;
    for (const slot of this.slots) {
      if (slot.state !== 'waiting') continue;
      slot.state = 'done';
      slot.resolve(unrun(slot.c));
    }
  }

  /** Resolves once no case is under way. */
  async idle(): Promise<void> {
    await Promise.all(this.slots.filter((s) => s.state === 'running').map((s) => s.done));
  }

  private fill(): void {
    if (this.stopped) return;
    while (this.first < this.slots.length && (this.slots[this.first] as Slot<T>).state !== 'waiting') this.first++;
    for (let i = this.first; i < this.slots.length && this.running < this.concurrency; i++) {
      const slot = this.slots[i] as Slot<T>;
      if (slot.state !== 'waiting') continue;
      if (slot.c.alone) {
        // A barrier: it waits for everything started before it, and nothing after it overtakes it; while it runs no
        // other case is under way, so none ends to start another.
        if (this.running === 0) this.launch(i);
        return;
      }
      if (this.ready(i)) this.launch(i);
    }
  }

  /** Whether case i may start: its earlier prerequisites have ended, and it is the next of its group. */
  private ready(i: number): boolean {
    const { c } = this.slots[i] as Slot<T>;
    for (const id of c.requires) {
      const j = this.byId.get(id);
      if (j !== undefined && j < i && (this.slots[j] as Slot<T>).state !== 'done') return false;
    }
    if (c.group === undefined) return true;
    const next = (this.groups.get(c.group) ?? []).find((j) => (this.slots[j] as Slot<T>).state !== 'done');
    return next === i;
  }

  private launch(i: number): void {
    const slot = this.slots[i] as Slot<T>;
    slot.state = 'running';
    this.running++;
    const shown: ProgressCase = { id: slot.c.id, file: slot.c.file };
    this.progress?.caseStarted(shown);
    void this.work(slot.c).then((outcome) => {
      slot.state = 'done';
      this.running--;
      this.progress?.caseFinished(shown, outcome.verdict);
      slot.resolve(outcome);
      this.fill();
    });
  }
}
