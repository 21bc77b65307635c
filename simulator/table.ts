// One resource's records in memory, with the indexes its list filters need. No HTTP here.
//
// Every record gets a sequence number when it is created; lists run in that order (creation order) and a page
// cursor is the sequence number of the last record served, so a walk stays stable while records are added.
// Indexes are arrays of rows sorted by sequence number ("buckets"): one per value of each equality filter, one per
// calendar day for the date filter, and one holding everything. A page reads the smallest set of buckets that
// covers the query, merged in sequence order, so it never walks the whole table when an index narrows it.
// Record fields are never mutated once stored (SharedStrings swaps in equal strings just before): a change installs
// a new fields object, which keeps earlier responses intact, makes undo a matter of putting the old object back,
// and lets json.ts reuse a record's JSON text. Callers that read records (handlers, tests, the harness through
// sim.store) must not change them either.

export interface Row<F> {
  readonly seq: number;
  fields: F;
  /** The record's date in ms, cached so that filtering does not parse dates. */
  date: number | undefined;
}

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
 * The rows of one value of an equality filter, in seq order. A bucket of one is the row itself: most values of a
 * filter such as job_offer_reference have one record, and an array for each cost 56 bytes and an object more for
 * the collector to copy (an empty array that is pushed to even reserves 17 slots).
 */
type Bucket<F> = Row<F> | Row<F>[];

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

/** First index whose row has seq > after. */
function firstAfter<F>(rows: readonly Row<F>[], after: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows[mid] as Row<F>).seq <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertRow<F>(rows: Row<F>[], row: Row<F>): void {
  const last = rows[rows.length - 1];
  if (!last || last.seq < row.seq) rows.push(row);
  else rows.splice(firstAfter(rows, row.seq - 1), 0, row);
}

function removeRow<F>(rows: Row<F>[], row: Row<F>): void {
  const at = firstAfter(rows, row.seq - 1);
  if (rows[at] === row) rows.splice(at, 1);
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
 * Visits the rows of several seq-sorted buckets in seq order, from the first with seq > after, until visit
 * returns false or the buckets run out: a k-way merge over a binary heap of bucket heads.
 */
export function mergeScan<F>(buckets: readonly (readonly Row<F>[])[], after: number, visit: (row: Row<F>) => boolean): void {
  if (buckets.length === 1) {
    const rows = buckets[0] as readonly Row<F>[];
    for (let i = firstAfter(rows, after); i < rows.length; i++) if (!visit(rows[i] as Row<F>)) return;
    return;
  }
  const pos = buckets.map((rows) => firstAfter(rows, after));
  const head = (b: number): number => ((buckets[b] as readonly Row<F>[])[pos[b] as number] as Row<F>).seq;
  const heap: number[] = [];
  const swap = (i: number, j: number): void => {
    const t = heap[i] as number;
    heap[i] = heap[j] as number;
    heap[j] = t;
  };
  const up = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (head(heap[parent] as number) <= head(heap[i] as number)) return;
      swap(i, parent);
      i = parent;
    }
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < heap.length && head(heap[l] as number) < head(heap[min] as number)) min = l;
      if (r < heap.length && head(heap[r] as number) < head(heap[min] as number)) min = r;
      if (min === i) return;
      swap(i, min);
      i = min;
    }
  };
  buckets.forEach((rows, b) => {
    if ((pos[b] as number) < rows.length) {
      heap.push(b);
      up(heap.length - 1);
    }
  });
  while (heap.length > 0) {
    const b = heap[0] as number;
    const rows = buckets[b] as readonly Row<F>[];
    const at = pos[b] as number;
    if (!visit(rows[at] as Row<F>)) return;
    pos[b] = at + 1;
    if (at + 1 < rows.length) down(0);
    else {
      heap[0] = heap[heap.length - 1] as number;
      heap.pop();
      if (heap.length > 0) down(0);
    }
  }
}

/** How far past the end of KeyIndex's array a numeric key may land and still go in it (else: the map). */
const DENSE_REACH = 1024;

/**
 * Rows by key. Ids are small integers handed out in order, so they index an array: a Map of a million entries
 * costs a hashed store per created record and rehashes as it grows (measured: a tenth of a batch's time), where a
 * new id is found absent by reading one slot. Any other key (a reference, an id far past the others) goes to a Map.
 */
export class KeyIndex<K, V> {
  private readonly dense: (V | undefined)[] = [];
  private denseCount = 0;
  private readonly sparse = new Map<K, V>();

  get size(): number {
    return this.denseCount + this.sparse.size;
  }

  private fits(key: K): boolean {
    return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key <= this.dense.length + DENSE_REACH;
  }

  get(key: K): V | undefined {
    // A key that fits now may have gone to the map when the array was shorter.
    if (this.fits(key)) return this.dense[key as number] ?? (this.sparse.size > 0 ? this.sparse.get(key) : undefined);
    return this.sparse.get(key);
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): void {
    if ((this.sparse.size > 0 && this.sparse.has(key)) || !this.fits(key)) {
      this.sparse.set(key, value);
      return;
    }
    const at = key as number;
    if (this.dense[at] === undefined) this.denseCount += 1;
    // Filled up to the key first, so that the array stays a list rather than becoming a dictionary.
    while (this.dense.length < at) this.dense.push(undefined);
    this.dense[at] = value;
  }

  delete(key: K): boolean {
    if (this.sparse.size > 0 && this.sparse.delete(key)) return true;
    if (!this.fits(key) || this.dense[key as number] === undefined) return false;
    this.dense[key as number] = undefined;
    this.denseCount -= 1;
    return true;
  }

  clear(): void {
    this.dense.length = 0;
    this.denseCount = 0;
    this.sparse.clear();
  }
}

export class Table<K, F> {
  private seq = 0;
  private readonly byKey = new KeyIndex<K, Row<F>>();
  private readonly all: Row<F>[] = [];
  private readonly buckets = new Map<string, Map<string, Bucket<F>>>();
  /** The bucketed filters with their buckets, made once: a record is indexed without looking them up by name. */
  private readonly indexed: { readonly of: (fields: F) => string | undefined; readonly buckets: Map<string, Bucket<F>> }[] = [];
  private readonly byDay = new Map<number, Row<F>[]>();
  /** The days that have a bucket, ascending. */
  private days: number[] = [];
  private readonly strings = new SharedStrings();

  constructor(
    private readonly shape: TableShape<K, F>,
    private readonly undoSink: () => UndoSink | undefined = () => undefined,
  ) {
    for (const [name, of] of Object.entries(shape.filters ?? {})) {
      if (name === shape.keyFilter) continue;
      const buckets = new Map<string, Bucket<F>>();
      this.buckets.set(name, buckets);
      this.indexed.push({ of, buckets });
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: K): F | undefined {
    return this.byKey.get(key)?.fields;
  }

  has(key: K): boolean {
    return this.byKey.has(key);
  }

  /** Every record in creation order. */
  values(): F[] {
    return this.all.map((row) => row.fields);
  }

  /** Every record with its sequence number, in creation order, and the last sequence number handed out (for snapshots). */
  dump(): { last: number; rows: [number, F][] } {
    return { last: this.seq, rows: this.all.map((row) => [row.seq, row.fields]) };
  }

  /**
   * Replaces every record with rows from dump(), outside any transaction. Throws, leaving the table empty, when
   * sequence numbers are not ascending, exceed last, or two records share a key.
   */
  load(last: number, rows: readonly (readonly [number, F])[]): void {
    this.clear();
    let previous = 0;
    for (const [index, [seq, fields]] of rows.entries()) {
      if (!Number.isSafeInteger(seq) || seq <= previous || seq > last) {
        this.clear();
        throw new Error(`row ${index}: sequence number ${String(seq)} is not above ${previous} and at most ${last}`);
      }
      if (this.byKey.has(this.shape.keyOf(fields))) {
        this.clear();
        throw new Error(`row ${index}: the key ${JSON.stringify(this.shape.keyOf(fields))} appears twice`);
      }
      previous = seq;
      this.strings.share(fields as Record<string, unknown>);
      this.attach({ seq, fields, date: this.shape.dateOf?.(fields) });
    }
    this.seq = last;
  }

  /** Creates a record from its sequence number (the id, for resources that have one); undefined when its key is taken. */
  insert(make: (seq: number) => F): F | undefined {
    const seq = this.seq + 1;
    const fields = make(seq);
    const key = this.shape.keyOf(fields);
    if (this.byKey.has(key)) return undefined;
    this.strings.share(fields as Record<string, unknown>);
    this.seq = seq;
    const row: Row<F> = { seq, fields, date: this.shape.dateOf?.(fields) };
    this.attach(row);
    this.undoSink()?.(() => this.detach(row));
    return fields;
  }

  /** Installs new fields for the record under key; the key may change (conflict when the new key is taken). */
  replace(key: K, fields: F): 'ok' | 'missing' | 'conflict' {
    const row = this.byKey.get(key);
    if (!row) return 'missing';
    const newKey = this.shape.keyOf(fields);
    if (newKey !== key && this.byKey.has(newKey)) return 'conflict';
    this.strings.share(fields as Record<string, unknown>);
    const old = row.fields;
    this.reindex(row, fields);
    this.undoSink()?.(() => this.reindex(row, old));
    return 'ok';
  }

  remove(key: K): boolean {
    const row = this.byKey.get(key);
    if (!row) return false;
    this.detach(row);
    this.undoSink()?.(() => this.attach(row));
    return true;
  }

  clear(): void {
    this.seq = 0;
    this.byKey.clear();
    this.all.length = 0;
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
    const sources: (readonly Row<F>[])[][] = [[this.all]];
    for (const set of sets) sources.push(this.bucketsOf(set.name, set.values));
    if (dated && this.shape.dateOf) {
      const first = firstAtLeast(this.days, from === undefined ? -Infinity : Math.floor(from / DAY_MS));
      const end = firstAtLeast(this.days, to === undefined ? Infinity : Math.floor(to / DAY_MS) + 1);
      sources.push(this.days.slice(first, end).map((day) => this.byDay.get(day) as Row<F>[]));
    }
    const sizeOf = (buckets: readonly (readonly Row<F>[])[]): number => buckets.reduce((sum, rows) => sum + rows.length, 0);
    let best = sources[0] as (readonly Row<F>[])[];
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
    mergeScan(best, query.after, (row) => {
      for (const set of sets) {
        const value = set.of(row.fields);
        if (value === undefined || !set.values.has(value)) return true;
      }
      if (dated && (row.date === undefined || (from !== undefined && row.date < from) || (to !== undefined && row.date > to))) return true;
      if (items.length === query.limit) {
        more = true;
        return false;
      }
      items.push(row.fields);
      last = row.seq;
      return true;
    });
    return { items, last, more };
  }

  private bucketsOf(name: string, values: ReadonlySet<string>): Row<F>[][] {
    if (name === this.shape.keyFilter) {
      const rows = [...values].map((v) => this.byKey.get(v as K)).filter((r): r is Row<F> => r !== undefined);
      return [rows.sort((a, b) => a.seq - b.seq)];
    }
    const index = this.buckets.get(name);
    return [...values].map((v) => index?.get(v)).filter((b): b is Bucket<F> => b !== undefined).map((b) => (Array.isArray(b) ? b : [b]));
  }

  private attach(row: Row<F>): void {
    this.byKey.set(this.shape.keyOf(row.fields), row);
    insertRow(this.all, row);
    this.index(row, row.fields, row.date, true);
  }

  private detach(row: Row<F>): void {
    this.byKey.delete(this.shape.keyOf(row.fields));
    removeRow(this.all, row);
    this.index(row, row.fields, row.date, false);
  }

  private reindex(row: Row<F>, fields: F): void {
    const oldKey = this.shape.keyOf(row.fields);
    const newKey = this.shape.keyOf(fields);
    const date = this.shape.dateOf?.(fields);
    for (const { of, buckets } of this.indexed) {
      const before = of(row.fields);
      const after = of(fields);
      if (before === after) continue;
      this.bucketIn(buckets, before, row, false);
      this.bucketIn(buckets, after, row, true);
    }
    if (date !== row.date) {
      this.dayAt(row.date, row, false);
      this.dayAt(date, row, true);
    }
    if (oldKey !== newKey) {
      this.byKey.delete(oldKey);
      this.byKey.set(newKey, row);
    }
    row.fields = fields;
    row.date = date;
  }

  private index(row: Row<F>, fields: F, date: number | undefined, add: boolean): void {
    for (const { of, buckets } of this.indexed) this.bucketIn(buckets, of(fields), row, add);
    this.dayAt(date, row, add);
  }

  private bucketIn(index: Map<string, Bucket<F>>, value: string | undefined, row: Row<F>, add: boolean): void {
    if (value === undefined) return;
    const bucket = index.get(value);
    if (add) {
      if (bucket === undefined) index.set(value, row);
      else if (Array.isArray(bucket)) insertRow(bucket, row);
      else index.set(value, bucket.seq < row.seq ? [bucket, row] : [row, bucket]);
    } else if (Array.isArray(bucket)) {
      removeRow(bucket, row);
      if (bucket.length === 1) index.set(value, bucket[0] as Row<F>);
      else if (bucket.length === 0) index.delete(value);
    } else if (bucket === row) index.delete(value);
  }

  private dayAt(date: number | undefined, row: Row<F>, add: boolean): void {
    if (date === undefined) return;
    const day = Math.floor(date / DAY_MS);
    const rows = this.byDay.get(day);
    if (add) {
      if (!rows) {
        this.byDay.set(day, [row]);
        const last = this.days[this.days.length - 1];
        if (last === undefined || last < day) this.days.push(day);
        else this.days.splice(firstAtLeast(this.days, day), 0, day);
      } else insertRow(rows, row);
    } else if (rows) {
      removeRow(rows, row);
      if (rows.length === 0) {
        this.byDay.delete(day);
        this.days.splice(firstAtLeast(this.days, day), 1);
      }
    }
  }
}
