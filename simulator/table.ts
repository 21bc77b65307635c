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

/** Limits of SharedStrings: what counts as a field of few values, and how many fields a table follows. */
const SHARED_VALUES_PER_FIELD = 1024;
const SHARED_MAX_LENGTH = 64;
const SHARED_FIELDS = 64;

/**
 * Stores equal strings of a field once. A status, a subsidiary or a date repeats across thousands of records, but
 * JSON.parse makes a new string for each: shared, a stored batch leaves fewer objects for the collector to copy and
 * keep (measured in-process on 10-item batches: a quarter less heap and of scavenge time). A field that shows more
 * than SHARED_VALUES_PER_FIELD values (a title, a reference) is given up, so it costs a lookup and no memory; the
 * number of fields followed is bounded too, since a body's field names come from the client.
 */
export class SharedStrings {
  private readonly fields = new Map<string, Map<string, string> | null>();

  /** Replaces, in place, each short string value of `record` by the equal string stored before, if any. */
  share(record: Record<string, unknown>): void {
    // A record a caller froze (through the programmatic API) is stored as it is.
    if (Object.isFrozen(record)) return;
    // for…in over the record's own keys reads each value through V8's enumeration cache, not a keyed look-up.
    for (const key in record) {
      const value = record[key];
      if (typeof value !== 'string' || value.length > SHARED_MAX_LENGTH) continue;
      let values = this.fields.get(key);
      if (values === null) continue;
      if (values === undefined) {
        if (this.fields.size >= SHARED_FIELDS) continue;
        this.fields.set(key, (values = new Map()));
      }
      const shared = values.get(value);
      if (shared !== undefined) record[key] = shared;
      else if (values.size < SHARED_VALUES_PER_FIELD) values.set(value, value);
      else this.fields.set(key, null);
    }
  }
}

/** First index whose number is > after, in an ascending array. */
function firstAfter(seqs: readonly number[], after: number): number {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((seqs[mid] as number) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function firstAtLeast(values: readonly number[], min: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The size of the chunks that the store's long arrays are made of. An array that grows by push is copied, each time
 * it fills, into a new one half as large again: a list of a million numbers took some three times its size in new
 * memory, and fresh memory is slow to touch (measured on the development VM, two million in a row: 140 ns a push
 * into one growing array, 39 ns an add to a SeqList). 4,096 keeps a chunk of pointers under the size that V8 places
 * apart as a large object.
 */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

/**
 * Whether a key goes in an index's chunks (an integer up to the chunk after its last one) rather than its Map: ids
 * and sequence numbers are handed out in order, and a number far past the others (allowed in snapshots) would
 * otherwise make chunks for all the numbers between.
 */
function inChunks(key: unknown, chunkCount: number): key is number {
  // Below 2^31 first: >>> reads its operand as 32 bits.
  return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < 2 ** 31 && key >>> CHUNK_BITS <= chunkCount;
}

/**
 * Distinct sequence numbers in ascending order, in chunks of at most CHUNK (a full one is split in two when a number
 * goes into its middle, which only undo and re-indexing do: new records come last).
 */
export class SeqList {
  private readonly chunks: number[][] = [];
  private count = 0;

  static of(seqs: readonly number[]): SeqList {
    const list = new SeqList();
    for (const seq of seqs) list.add(seq);
    return list;
  }

  get length(): number {
    return this.count;
  }

  add(seq: number): void {
    const chunks = this.chunks;
    const tail = chunks[chunks.length - 1];
    this.count += 1;
    if (tail === undefined || (tail[tail.length - 1] as number) < seq) {
      if (tail !== undefined && tail.length < CHUNK) tail.push(seq);
      else chunks.push([seq]);
      return;
    }
    const c = this.chunkOf(seq, true);
    const chunk = chunks[c] as number[];
    chunk.splice(firstAtLeast(chunk, seq), 0, seq);
    if (chunk.length > CHUNK) chunks.splice(c + 1, 0, chunk.splice(CHUNK >> 1));
  }

  remove(seq: number): void {
    const c = this.chunkOf(seq, true);
    const chunk = this.chunks[c];
    if (chunk === undefined) return;
    const at = firstAtLeast(chunk, seq);
    if (chunk[at] !== seq) return;
    this.count -= 1;
    if (chunk.length === 1) this.chunks.splice(c, 1);
    else chunk.splice(at, 1);
  }

  clear(): void {
    this.chunks.length = 0;
    this.count = 0;
  }

  values(): number[] {
    return this.chunks.flat();
  }

  /** A reader of the numbers > after, in order. */
  cursor(after: number): SeqCursor {
    const c = this.chunkOf(after, false);
    const chunk = this.chunks[c];
    return new SeqCursor(this.chunks, c, chunk === undefined ? 0 : firstAfter(chunk, after));
  }

  /** The first chunk whose last number is ≥ bound (orAt) or > bound; chunks.length when there is none. */
  private chunkOf(bound: number, orAt: boolean): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid] as number[];
      const last = chunk[chunk.length - 1] as number;
      if (last < bound || (!orAt && last === bound)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Reads a SeqList from a position on; head is NaN past the end. The list must not change while it is read. */
export class SeqCursor {
  head = NaN;

  constructor(private readonly chunks: readonly (readonly number[])[], private chunk: number, private at: number) {
    this.settle();
  }

  next(): void {
    this.at += 1;
    this.settle();
  }

  private settle(): void {
    for (;;) {
      const chunk = this.chunks[this.chunk];
      if (chunk === undefined) {
        this.head = NaN;
        return;
      }
      if (this.at < chunk.length) {
        this.head = chunk[this.at] as number;
        return;
      }
      this.chunk += 1;
      this.at = 0;
    }
  }
}

/**
 * Visits the sequence numbers of several lists in order, from the first > after, until visit returns false or the
 * lists run out: a k-way merge over a binary heap of the lists' cursors.
 */
export function mergeScan(lists: readonly SeqList[], after: number, visit: (seq: number) => boolean): void {
  const cursors = lists.map((list) => list.cursor(after));
  if (cursors.length === 1) {
    const cursor = cursors[0] as SeqCursor;
    for (; !Number.isNaN(cursor.head); cursor.next()) if (!visit(cursor.head)) return;
    return;
  }
  const head = (i: number): number => (cursors[heap[i] as number] as SeqCursor).head;
  const heap: number[] = [];
  const swap = (i: number, j: number): void => {
    const t = heap[i] as number;
    heap[i] = heap[j] as number;
    heap[j] = t;
  };
  const up = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (head(parent) <= head(i)) return;
      swap(i, parent);
      i = parent;
    }
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < heap.length && head(l) < head(min)) min = l;
      if (r < heap.length && head(r) < head(min)) min = r;
      if (min === i) return;
      swap(i, min);
      i = min;
    }
  };
  cursors.forEach((cursor, b) => {
    if (!Number.isNaN(cursor.head)) {
      heap.push(b);
      up(heap.length - 1);
    }
  });
  while (heap.length > 0) {
    const cursor = cursors[heap[0] as number] as SeqCursor;
    if (!visit(cursor.head)) return;
    cursor.next();
    if (!Number.isNaN(cursor.head)) down(0);
    else {
      heap[0] = heap[heap.length - 1] as number;
      heap.pop();
      if (heap.length > 0) down(0);
    }
  }
}

/**
 * Values by key: a record by its sequence number, a sequence number by its key. Ids and sequence numbers are small
 * integers handed out in order, so they index chunks of an array: a Map of a million entries costs a hashed store
 * per created record and rehashes as it grows (measured: a tenth of a batch's time), where a new id is found absent
 * by reading one slot. Any other key (a reference, a number that is not inChunks) goes to a Map.
 */
export class KeyIndex<K, V> {
  private readonly chunks: (V | undefined)[][] = [];
  private denseCount = 0;
  private readonly sparse = new Map<K, V>();

  get size(): number {
    return this.denseCount + this.sparse.size;
  }

  private fits(key: K): boolean {
    return inChunks(key, this.chunks.length);
  }

  get(key: K): V | undefined {
    if (this.fits(key)) {
      const value = this.chunks[(key as number) >>> CHUNK_BITS]?.[(key as number) & IN_CHUNK];
      if (value !== undefined) return value;
    }
    // A key that fits now may have gone to the map when there were fewer chunks.
    return this.sparse.size > 0 ? this.sparse.get(key) : undefined;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): void {
    if ((this.sparse.size > 0 && this.sparse.has(key)) || !this.fits(key)) {
      this.sparse.set(key, value);
      return;
    }
    const c = (key as number) >>> CHUNK_BITS;
    const chunk = this.chunks[c] ?? (this.chunks[c] = new Array<V | undefined>(CHUNK));
    if (chunk[(key as number) & IN_CHUNK] === undefined) this.denseCount += 1;
    chunk[(key as number) & IN_CHUNK] = value;
  }

  delete(key: K): boolean {
    if (this.sparse.size > 0 && this.sparse.delete(key)) return true;
    if (!this.fits(key)) return false;
    const chunk = this.chunks[(key as number) >>> CHUNK_BITS];
    if (chunk?.[(key as number) & IN_CHUNK] === undefined) return false;
    chunk[(key as number) & IN_CHUNK] = undefined;
    this.denseCount -= 1;
    return true;
  }

  clear(): void {
    this.chunks.length = 0;
    this.denseCount = 0;
    this.sparse.clear();
  }
}

/**
 * Record dates by sequence number, in chunks of unboxed doubles: kept with each record, a date was a heap number,
 * one object more per record for the collector to copy and mark. NaN stands for "no date". Numbers that are not
 * inChunks go to a Map, as in KeyIndex.
 */
class DateColumn {
  private readonly chunks: Float64Array[] = [];
  private readonly sparse = new Map<number, number>();

  private fits(seq: number): boolean {
    return inChunks(seq, this.chunks.length);
  }

  get(seq: number): number | undefined {
    const ms = this.fits(seq) ? this.chunks[seq >>> CHUNK_BITS]?.[seq & IN_CHUNK] : undefined;
    if (ms !== undefined && !Number.isNaN(ms)) return ms;
    return this.sparse.size > 0 ? this.sparse.get(seq) : undefined;
  }

  set(seq: number, ms: number | undefined): void {
    if ((this.sparse.size > 0 && this.sparse.has(seq)) || !this.fits(seq)) {
      if (ms === undefined) this.sparse.delete(seq);
      else this.sparse.set(seq, ms);
      return;
    }
    const c = seq >>> CHUNK_BITS;
    const chunk = this.chunks[c] ?? (this.chunks[c] = new Float64Array(CHUNK).fill(NaN));
    chunk[seq & IN_CHUNK] = ms ?? NaN;
  }

  clear(): void {
    this.chunks.length = 0;
    this.sparse.clear();
  }
}

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
