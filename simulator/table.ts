// One resource's records in memory, with the indexes its list filters need. No HTTP here.
//
// Every record gets a sequence number when it is created; lists run in that order (creation order) and a page
// cursor is the sequence number of the last record served, so a walk stays stable while records are added.
// Indexes are ascending lists of sequence numbers ("buckets"): one per value of each equality filter, one per
// calendar day for the date filter, and one holding everything. A page reads the smallest set of buckets that
// covers the query, merged in sequence order, so it never walks the whole table when an index narrows it.
// A record is stored as its fields object alone, found by its sequence number; indexes and dates are numbers. With
// a row object per record, a heap number for its date and pointers in every bucket, a million records were some
// four million objects and pointers more for the collector to copy and mark at each write.
// Record fields are never mutated once stored (SharedStrings swaps in equal strings just before): a change installs
// a new fields object, which keeps earlier responses intact, makes undo a matter of putting the old object back,
// and lets json.ts reuse a record's JSON text. Callers that read records (handlers, tests, the harness through
// sim.store) must not change them either.

import { DateColumn, KeyIndex, SeqList, SharedStrings, firstAtLeast, mergeScan } from './table-parts.js';

export interface TableShape<K, F> {
  keyOf(fields: F): K;
  /** Equality filters: filter name → the value a record is found under (undefined: not indexed). */
  filters?: Readonly<Record<string, (fields: F) => string | undefined>>;
  /** An equality filter whose value is the primary key: it is served by the key map, not by buckets. */
  keyFilter?: string;
  dateOf?(fields: F): number | undefined;
}

export interface PageQuery {
  /** Filter name → the values accepted (a record matches when its value is one of them). */
  eq?: Readonly<Record<string, readonly string[]>>;
  /** Inclusive date bounds in ms. */
  from?: number;
  to?: number;
  /** Only records created after this sequence number. */
  after: number;
  limit: number;
}

export interface Page<F> {
  items: F[];
  /** The sequence number of the last item (the cursor of the next page). */
  last: number;
  more: boolean;
}

export type UndoSink = (undo: () => void) => void;

/**
 * The largest sequence number a table hands out: a numeric {id} and a page cursor carry at most 15 digits (every such
 * number is exact in a double), so a record past it could be neither addressed nor paged to.
 */
export const MAX_SEQUENCE = 999_999_999_999_999;

/** Thrown by insert() when the table has handed out MAX_SEQUENCE: nothing was stored. */
export class SequenceExhausted extends Error {
  constructor() {
    super(`the store has handed out every sequence number up to ${MAX_SEQUENCE}`);
    this.name = 'SequenceExhausted';
  }
}

const DAY_MS = 86_400_000;

/**
 * The sequence numbers of one value of an equality filter. A bucket of one is the number itself: most values of a
 * filter such as job_offer_reference have one record, and a list for each would be objects more for the collector.
 */
type Bucket = number | SeqList;

export class Table<K, F> {
  private seq = 0;
  /** Records by sequence number: a record is one object in the store, with no row object around it. */
  private readonly bySeq = new KeyIndex<number, F>();
  private readonly seqOf = new KeyIndex<K, number>();
  private readonly dates = new DateColumn();
  private readonly all = new SeqList();
  private readonly buckets = new Map<string, Map<string, Bucket>>();
  /** The bucketed filters with their buckets, made once: a record is indexed without looking them up by name. */
  private readonly indexed: { readonly of: (fields: F) => string | undefined; readonly buckets: Map<string, Bucket> }[] = [];
  private readonly byDay = new Map<number, SeqList>();
  /** The days that have a bucket, ascending. */
  private days: number[] = [];
  private readonly strings = new SharedStrings();

  constructor(
    private readonly shape: TableShape<K, F>,
    private readonly undoSink: () => UndoSink | undefined = () => undefined,
  ) {
    for (const [name, of] of Object.entries(shape.filters ?? {})) {
      if (name === shape.keyFilter) continue;
      const buckets = new Map<string, Bucket>();
      this.buckets.set(name, buckets);
      this.indexed.push({ of, buckets });
    }
  }

  get size(): number {
    return this.seqOf.size;
  }

  get(key: K): F | undefined {
    const seq = this.seqOf.get(key);
    return seq === undefined ? undefined : this.bySeq.get(seq);
  }

  has(key: K): boolean {
    return this.seqOf.has(key);
  }

  /** Every record in creation order. */
  values(): F[] {
    return this.all.values().map((seq) => this.fieldsAt(seq));
  }

  /** Every record with its sequence number, in creation order, and the last sequence number handed out (for snapshots). */
  dump(): { last: number; rows: [number, F][] } {
    return { last: this.seq, rows: this.all.values().map((seq) => [seq, this.fieldsAt(seq)]) };
  }

  /**
   * The same as dump(), in two flat arrays (sequence numbers, records) rather than a pair per record: what a save
   * takes synchronously, before it serialises in pieces, so it allocates as little as it can.
   */
  capture(): { last: number; seqs: number[]; records: F[] } {
    const seqs = this.all.values();
    const records = new Array<F>(seqs.length);
    for (let i = 0; i < seqs.length; i++) records[i] = this.fieldsAt(seqs[i] as number);
    return { last: this.seq, seqs, records };
  }

  /**
   * Replaces every record with rows from dump(), outside any transaction. Throws, leaving the table empty, when
   * sequence numbers are not ascending, exceed last, or two records share a key.
   */
  load(last: number, rows: readonly (readonly [number, F])[]): void {
    this.clear();
    if (!Number.isSafeInteger(last) || last < 0 || last > MAX_SEQUENCE) {
      throw new Error(`last ${String(last)} is not a whole number from 0 to ${MAX_SEQUENCE}`);
    }
    let previous = 0;
    for (const [index, [seq, fields]] of rows.entries()) {
      if (!Number.isSafeInteger(seq) || seq <= previous || seq > last) {
        this.clear();
        throw new Error(`row ${index}: sequence number ${String(seq)} is not above ${previous} and at most ${last}`);
      }
      if (this.seqOf.has(this.shape.keyOf(fields))) {
        this.clear();
        throw new Error(`row ${index}: the key ${JSON.stringify(this.shape.keyOf(fields))} appears twice`);
      }
      previous = seq;
      this.strings.share(fields as Record<string, unknown>);
      this.attach(seq, fields);
    }
    this.seq = last;
  }

  /**
   * Creates a record from its sequence number (the id, for resources that have one); undefined when its key is taken.
   * Throws SequenceExhausted, storing nothing, once MAX_SEQUENCE has been handed out.
   */
  insert(make: (seq: number) => F): F | undefined {
    if (this.seq >= MAX_SEQUENCE) throw new SequenceExhausted();
    const seq = this.seq + 1;
    const fields = make(seq);
    if (this.seqOf.has(this.shape.keyOf(fields))) return undefined;
    this.strings.share(fields as Record<string, unknown>);
    this.seq = seq;
    this.attach(seq, fields);
    this.undoSink()?.(() => this.detach(seq));
    return fields;
  }

  /** Installs new fields for the record under key; the key may change (conflict when the new key is taken). */
  replace(key: K, fields: F): 'ok' | 'missing' | 'conflict' {
    const seq = this.seqOf.get(key);
    if (seq === undefined) return 'missing';
    const newKey = this.shape.keyOf(fields);
    if (newKey !== key && this.seqOf.has(newKey)) return 'conflict';
    this.strings.share(fields as Record<string, unknown>);
    const old = this.fieldsAt(seq);
    this.reindex(seq, fields);
    this.undoSink()?.(() => this.reindex(seq, old));
    return 'ok';
  }

  remove(key: K): boolean {
    const seq = this.seqOf.get(key);
    if (seq === undefined) return false;
    const fields = this.fieldsAt(seq);
    this.detach(seq);
    this.undoSink()?.(() => this.attach(seq, fields));
    return true;
  }

  clear(): void {
    this.seq = 0;
    this.bySeq.clear();
    this.seqOf.clear();
    this.dates.clear();
    this.all.clear();
    for (const index of this.buckets.values()) index.clear();
    this.byDay.clear();
    this.days = [];
  }

  page(query: PageQuery): Page<F> {
    const eq = Object.entries(query.eq ?? {}).filter(([, values]) => values.length > 0);
    const sets = eq.map(([name, values]) => {
      const of = this.shape.filters?.[name];
      if (!of) throw new Error(`rdx simulator: no filter ${name} on this table`);
      return { name, of, values: new Set(values) };
    });
    const { from, to } = query;
    const dated = from !== undefined || to !== undefined;

    // Candidate sources, each a set of buckets holding every match; the smallest is read.
    const sources: SeqList[][] = [[this.all]];
    for (const set of sets) sources.push(this.bucketsOf(set.name, set.values));
    if (dated && this.shape.dateOf) {
      const first = firstAtLeast(this.days, from === undefined ? -Infinity : Math.floor(from / DAY_MS));
      const end = firstAtLeast(this.days, to === undefined ? Infinity : Math.floor(to / DAY_MS) + 1);
      sources.push(this.days.slice(first, end).map((day) => this.byDay.get(day) as SeqList));
    }
    const sizeOf = (lists: readonly SeqList[]): number => lists.reduce((sum, seqs) => sum + seqs.length, 0);
    let best = sources[0] as SeqList[];
    let bestSize = this.all.length;
    for (const source of sources.slice(1)) {
      const size = sizeOf(source);
      if (size < bestSize) {
        best = source;
        bestSize = size;
      }
    }

    const items: F[] = [];
    let last = query.after;
    let more = false;
    mergeScan(best, query.after, (seq) => {
      const fields = this.fieldsAt(seq);
      for (const set of sets) {
        const value = set.of(fields);
        if (value === undefined || !set.values.has(value)) return true;
      }
      if (dated) {
        const date = this.dates.get(seq);
        if (date === undefined || (from !== undefined && date < from) || (to !== undefined && date > to)) return true;
      }
      if (items.length === query.limit) {
        more = true;
        return false;
      }
      items.push(fields);
      last = seq;
      return true;
    });
    return { items, last, more };
  }

  private fieldsAt(seq: number): F {
    return this.bySeq.get(seq) as F;
  }

  private bucketsOf(name: string, values: ReadonlySet<string>): SeqList[] {
    if (name === this.shape.keyFilter) {
      const seqs = [...values].map((v) => this.seqOf.get(v as K)).filter((seq): seq is number => seq !== undefined);
      return [SeqList.of(seqs.sort((a, b) => a - b))];
    }
    const index = this.buckets.get(name);
    return [...values].map((v) => index?.get(v)).filter((b): b is Bucket => b !== undefined).map((b) => (typeof b === 'number' ? SeqList.of([b]) : b));
  }

  private attach(seq: number, fields: F): void {
    this.seqOf.set(this.shape.keyOf(fields), seq);
    this.bySeq.set(seq, fields);
    this.all.add(seq);
    const date = this.shape.dateOf?.(fields);
    if (this.shape.dateOf) this.dates.set(seq, date);
    this.index(seq, fields, date, true);
  }

  private detach(seq: number): void {
    const fields = this.fieldsAt(seq);
    this.index(seq, fields, this.dates.get(seq), false);
    this.seqOf.delete(this.shape.keyOf(fields));
    this.bySeq.delete(seq);
    this.all.remove(seq);
    if (this.shape.dateOf) this.dates.set(seq, undefined);
  }

  private reindex(seq: number, fields: F): void {
    const old = this.fieldsAt(seq);
    const oldKey = this.shape.keyOf(old);
    const newKey = this.shape.keyOf(fields);
    for (const { of, buckets } of this.indexed) {
      const before = of(old);
      const after = of(fields);
      if (before === after) continue;
      this.bucketIn(buckets, before, seq, false);
      this.bucketIn(buckets, after, seq, true);
    }
    if (this.shape.dateOf) {
      const was = this.dates.get(seq);
      const date = this.shape.dateOf(fields);
      if (date !== was) {
        this.dayAt(was, seq, false);
        this.dayAt(date, seq, true);
        this.dates.set(seq, date);
      }
    }
    if (oldKey !== newKey) {
      this.seqOf.delete(oldKey);
      this.seqOf.set(newKey, seq);
    }
    this.bySeq.set(seq, fields);
  }

  private index(seq: number, fields: F, date: number | undefined, add: boolean): void {
    for (const { of, buckets } of this.indexed) this.bucketIn(buckets, of(fields), seq, add);
    this.dayAt(date, seq, add);
  }

  private bucketIn(index: Map<string, Bucket>, value: string | undefined, seq: number, add: boolean): void {
    if (value === undefined) return;
    const bucket = index.get(value);
    if (add) {
      if (bucket === undefined) index.set(value, seq);
      else if (typeof bucket !== 'number') bucket.add(seq);
      else index.set(value, SeqList.of([bucket, seq]));
    } else if (typeof bucket !== 'number') {
      if (bucket === undefined) return;
      bucket.remove(seq);
      if (bucket.length === 1) index.set(value, bucket.values()[0] as number);
      else if (bucket.length === 0) index.delete(value);
    } else if (bucket === seq) index.delete(value);
  }

  private dayAt(date: number | undefined, seq: number, add: boolean): void {
    if (date === undefined) return;
    const day = Math.floor(date / DAY_MS);
    const seqs = this.byDay.get(day);
    if (add) {
      if (!seqs) {
        this.byDay.set(day, SeqList.of([seq]));
        const last = this.days[this.days.length - 1];
        if (last === undefined || last < day) this.days.push(day);
        else this.days.splice(firstAtLeast(this.days, day), 0, day);
      } else seqs.add(seq);
    } else if (seqs) {
      seqs.remove(seq);
      if (seqs.length === 0) {
        this.byDay.delete(day);
        this.days.splice(firstAtLeast(this.days, day), 1);
      }
    }
  }
}
