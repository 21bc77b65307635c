// What a running simulator holds that its public type (Simulator) does not show: the store and the journal, for the
// tests (test/support/simulator.ts hands them out) and the benchmarks, which look inside. Not in the package's API:
// nothing the API exports names this module, so its types stay out of the published declarations.
import type { Journal } from './journal.js';
import type { Store } from './store.js';

export interface SimulatorInternals {
  readonly store: Store;
  readonly journal: Journal;
}

const INTERNALS = new WeakMap<object, SimulatorInternals>();

/** Called by startSimulator for the simulator it returns. */
export function keepInternals(simulator: object, internals: SimulatorInternals): void {
  INTERNALS.set(simulator, internals);
}

/** The store and journal of a simulator startSimulator returned. */
export function internalsOf(simulator: object): SimulatorInternals {
  const internals = INTERNALS.get(simulator);
  if (!internals) throw new Error('rdx simulator: not a simulator startSimulator returned');
  return internals;
}
