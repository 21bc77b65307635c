// The parts a table (table.ts) is made of, each kept in as few objects as it can be: ascending lists of sequence
// numbers in chunks and their merged scan, a map from keys (dense numbers in chunks), a column of record dates, and
// the strings shared between records. Why each is shaped so is told where it is defined.

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

export function firstAtLeast(values: readonly number[], min: number): number {
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
export class DateColumn {
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
