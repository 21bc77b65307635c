// The simulator's data: one table per resource and the user set, in memory. No HTTP here.
// Writes made inside transaction() can be undone as one, which is how a refused or failed request leaves nothing
// half-written and how personas roll a request back.
import type {
  ApplicationStepItem, JobOfferItem, JobboardActivityItem, JobboardJobOfferItem, UserItem,
} from '../src/data/types.js';
import { parseIsoDate } from './dates.js';
import { Table, type UndoSink } from './table.js';

/** Stored records are exactly what responses carry: absent optional fields are left out, never null. */
export type JobOfferRecord = JobOfferItem;
export type ApplicationStepRecord = { id: number } & ApplicationStepItem;
export type JobboardActivityRecord = { id: number } & JobboardActivityItem;
export type JobboardJobOfferRecord = { id: number } & JobboardJobOfferItem;
export type UserRecord = UserItem;

/** The record tables, in the order seeding fills them. */
export const TABLES = ['jobOffers', 'jobboardJobOffers', 'jobboardActivities', 'applicationSteps'] as const;

export interface Transaction<T> {
  result: T;
  /** Undoes every write of the transaction, newest first; later calls do nothing. */
  undo(): void;
}

/** The tables of a store as plain data (a snapshot's `store` member): rows are [sequence number, record]. */
export interface StoreData {
  jobOffers: TableData<JobOfferRecord>;
  applicationSteps: TableData<ApplicationStepRecord>;
  jobboardActivities: TableData<JobboardActivityRecord>;
  jobboardJobOffers: TableData<JobboardJobOfferRecord>;
  users: UserRecord[];
}
export interface TableData<F> {
  last: number;
  rows: [number, F][];
}

export class Store {
  private log: (() => void)[] | undefined;
  /** Called after every change that stays (a transaction that wrote, an undo, a load, a clear). */
  onChange: (() => void) | undefined;
  private readonly record: UndoSink = (undo) => {
    this.log?.push(undo);
  };
  private readonly sink = (): UndoSink | undefined => (this.log ? this.record : undefined);

  /** ATS job offers, keyed by reference (the {id} of their paths). */
  readonly jobOffers = new Table<string, JobOfferRecord>({
    keyOf: (f) => f.reference,
    filters: { reference: (f) => f.reference },
    keyFilter: 'reference',
    dateOf: (f) => parseIsoDate(f.publication_at)?.ms,
  }, this.sink);

  readonly applicationSteps = new Table<number, ApplicationStepRecord>({ keyOf: (f) => f.id }, this.sink);

  readonly jobboardActivities = new Table<number, JobboardActivityRecord>({
    keyOf: (f) => f.id,
    filters: { job_offer_reference: (f) => f.job_offer_reference, status: (f) => f.status },
    dateOf: (f) => parseIsoDate(f.recorded_at)?.ms,
  }, this.sink);

  readonly jobboardJobOffers = new Table<number, JobboardJobOfferRecord>({ keyOf: (f) => f.id }, this.sink);

  private userSet: readonly UserRecord[] = [];

  get users(): readonly UserRecord[] {
    return this.userSet;
  }

  replaceUsers(users: readonly UserRecord[]): void {
    const old = this.userSet;
    this.userSet = users;
    this.sink()?.(() => {
      this.userSet = old;
    });
  }

  transaction<T>(write: () => T): Transaction<T> {
    if (this.log) throw new Error('rdx simulator: a store transaction is already open');
    const log: (() => void)[] = [];
    let undone = false;
    const undo = (): void => {
      if (undone) return;
      undone = true;
      for (let i = log.length - 1; i >= 0; i--) (log[i] as () => void)();
    };
    this.log = log;
    try {
      const result = write();
      this.log = undefined;
      if (log.length > 0) this.onChange?.();
      return {
        result,
        undo: () => {
          const wrote = !undone && log.length > 0;
          undo();
          if (wrote) this.onChange?.();
        },
      };
    } catch (error) {
      this.log = undefined;
      undo();
      throw error;
    }
  }

  clear(): void {
    this.jobOffers.clear();
    this.applicationSteps.clear();
    this.jobboardActivities.clear();
    this.jobboardJobOffers.clear();
    this.userSet = [];
    this.onChange?.();
  }

  dump(): StoreData {
    return {
      jobOffers: this.jobOffers.dump(),
      applicationSteps: this.applicationSteps.dump(),
      jobboardActivities: this.jobboardActivities.dump(),
      jobboardJobOffers: this.jobboardJobOffers.dump(),
      users: [...this.userSet],
    };
  }

  /** Replaces everything with data from dump() (checked by the caller); on a table's error the store is left empty. */
  load(data: StoreData): void {
    if (this.log) throw new Error('rdx simulator: a store cannot be loaded inside a transaction');
    try {
      for (const name of TABLES) {
        const table = data[name] as TableData<unknown>;
        try {
          (this[name] as unknown as Table<unknown, unknown>).load(table.last, table.rows);
        } catch (error) {
          throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
        }
      }
      this.userSet = data.users;
    } catch (error) {
      this.clear();
      throw error;
    }
    this.onChange?.();
  }

  counts(): Record<string, number> {
    return {
      jobOffers: this.jobOffers.size,
      applicationSteps: this.applicationSteps.size,
      jobboardActivities: this.jobboardActivities.size,
      jobboardJobOffers: this.jobboardJobOffers.size,
      users: this.userSet.length,
    };
  }
}
