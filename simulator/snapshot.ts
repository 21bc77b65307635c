// Snapshots of the simulator's store: one JSON document with a format name and version, the seed it started
// from, and every record with its sequence number (so ids, cursors and creation order survive). Used by
// `rdx simulate --state FILE`, by GET/PUT /__admin/snapshot and by the seed cache. A file that is not a snapshot
// of this version, or whose records break the schemas, is refused with what is wrong and where; nothing is
// loaded from it.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, openSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SCHEMA_BASE, schemaErrors } from '../src/spec/index.js';
import { TABLES, type Store, type StoreData } from './store.js';
import { MAX_SEQUENCE } from './table.js';

export const SNAPSHOT_FORMAT = 'rdx-simulator-snapshot';
/** A snapshot may be far larger than an API request body: 1M records take about 400 MB. Past it, none is read. */
export const SNAPSHOT_MAX_BYTES = 1024 ** 3;
export const SNAPSHOT_VERSION = 1;

export interface SnapshotMeta {
  /** The seed and volume the store was first filled from (what reset returns to). */
  seed: number;
  records: number;
}

export interface Snapshot extends SnapshotMeta {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  savedAt: string;
  store: StoreData;
}

/** A snapshot that cannot be used: the message says what is wrong and where. */
export class SnapshotError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SnapshotError';
  }
}

/** The schema each stored record must satisfy. */
const RECORD_SCHEMAS: Readonly<Record<(typeof TABLES)[number] | 'users', string>> = {
  jobOffers: `${SCHEMA_BASE}job-offer.json#/$defs/record`,
  applicationSteps: `${SCHEMA_BASE}application-step.json#/$defs/record-with-id`,
  jobboardActivities: `${SCHEMA_BASE}jobboard-activity.json#/$defs/record-with-id`,
  jobboardJobOffers: `${SCHEMA_BASE}jobboard-job-offer.json#/$defs/record-with-id`,
  users: `${SCHEMA_BASE}user.json#/$defs/record`,
};
/** Problems listed before the rest are counted. */
const SHOWN = 5;

export function snapshotText(store: Store, meta: SnapshotMeta, now: number = Date.now()): string {
  const snapshot: Snapshot = {
    format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, savedAt: new Date(now).toISOString(),
    seed: meta.seed, records: meta.records, store: store.dump(),
  };
  return JSON.stringify(snapshot);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a snapshot. `trusted` skips checking every record against the schemas (the seed cache, whose content
 * hash was checked); the shape of the document is always checked.
 */
export function parseSnapshot(text: string, trusted = false): Snapshot {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(`not JSON (${(error as Error).message}); a snapshot is written whole, so this file is damaged or not a snapshot`);
  }
  if (!isObject(doc) || doc['format'] !== SNAPSHOT_FORMAT) {
    throw new SnapshotError(`not an rdx simulator snapshot (no "format": "${SNAPSHOT_FORMAT}")`);
  }
  if (doc['version'] !== SNAPSHOT_VERSION) {
    throw new SnapshotError(`snapshot format version ${JSON.stringify(doc['version'])}; this simulator reads version ${SNAPSHOT_VERSION}`);
  }
  const problems: string[] = [];
  for (const key of ['seed', 'records'] as const) {
    if (!Number.isSafeInteger(doc[key]) || (doc[key] as number) < 0) problems.push(`${key} must be a whole number`);
  }
  const store = doc['store'];
  if (!isObject(store)) throw new SnapshotError('store is missing or not an object');
  for (const name of TABLES) {
    const table = store[name];
    if (!isObject(table) || !Number.isSafeInteger(table['last']) || !Array.isArray(table['rows'])) {
      problems.push(`store.${name} must be {last, rows}`);
      continue;
    }
    // A sequence number past MAX_SEQUENCE could be neither addressed nor paged to, and the next ids would run out.
    if ((table['last'] as number) < 0 || (table['last'] as number) > MAX_SEQUENCE) {
      problems.push(`store.${name}.last must be from 0 to ${MAX_SEQUENCE} (the largest id a path or a cursor carries), not ${String(table['last'])}`);
      continue;
    }
    (table['rows'] as unknown[]).forEach((row, i) => {
      if (problems.length > SHOWN * 4) return;
      if (!Array.isArray(row) || row.length !== 2 || !Number.isSafeInteger(row[0]) || !isObject(row[1])) {
        problems.push(`store.${name}.rows[${i}] must be [sequence number, record]`);
      } else if ((row[0] as number) < 1 || (row[0] as number) > (table['last'] as number)) {
        problems.push(`store.${name}.rows[${i}]: sequence number ${String(row[0])} is not from 1 to last (${String(table['last'])})`);
      } else if (name !== 'jobOffers' && row[1]['id'] !== row[0]) {
        // Numeric ids are handed out from the sequence, so a record's id must be its sequence number.
        problems.push(`store.${name}.rows[${i}]: id ${JSON.stringify(row[1]['id'])} is not its sequence number ${String(row[0])}`);
      } else if (!trusted) {
        for (const p of schemaErrors(RECORD_SCHEMAS[name], row[1])) problems.push(`store.${name}.rows[${i}]: ${p.replace(/^\(body\): /, '')}`);
      }
    });
  }
  if (!Array.isArray(store['users'])) problems.push('store.users must be an array');
  else if (!trusted) {
    (store['users'] as unknown[]).forEach((user, i) => {
      for (const p of schemaErrors(RECORD_SCHEMAS.users, user)) problems.push(`store.users[${i}]: ${p.replace(/^\(body\): /, '')}`);
    });
  }
  if (problems.length > 0) {
    const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
    throw new SnapshotError(`${problems.slice(0, SHOWN).join('; ')}${more}`);
  }
  return doc as unknown as Snapshot;
}

/** Replaces the store's contents with the snapshot's; all or nothing (an error leaves the store as it was). */
export function applySnapshot(store: Store, snapshot: Snapshot): void {
  const before = store.dump();
  try {
    store.load(snapshot.store);
  } catch (error) {
    store.load(before);
    throw new SnapshotError((error as Error).message, { cause: error });
  }
}

/** The tables of a store as they are at one instant: sequence numbers and records side by side. */
type Captured = { [name in (typeof TABLES)[number]]: { last: number; seqs: number[]; records: unknown[] } };

/** The store as it is at one instant, with what a snapshot says about it: serialised later, in pieces. */
export interface SnapshotSource {
  meta: SnapshotMeta;
  savedAt: number;
  tables: Captured;
  users: readonly unknown[];
}

/** Copies the references of every record now (records are never mutated once stored: table.ts), not their text. */
export function snapshotSource(store: Store, meta: SnapshotMeta, now: number = Date.now()): SnapshotSource {
  return {
    meta: { seed: meta.seed, records: meta.records }, savedAt: now,
    tables: {
      jobOffers: store.jobOffers.capture(),
      applicationSteps: store.applicationSteps.capture(),
      jobboardActivities: store.jobboardActivities.capture(),
      jobboardJobOffers: store.jobboardJobOffers.capture(),
    },
    users: store.users,
  };
}

/** Rows serialised per piece: well under a millisecond of JSON.stringify each. */
const ROWS_PER_PIECE = 250;

/**
 * The snapshot document as consecutive pieces of text whose concatenation is exactly snapshotText's: a writer that
 * awaits between pieces serialises a large store without holding the event loop for the whole of it.
 */
export function* snapshotPieces(source: SnapshotSource, rowsPerPiece: number = ROWS_PER_PIECE): Generator<string> {
  const head: Omit<Snapshot, 'store'> = {
    format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, savedAt: new Date(source.savedAt).toISOString(),
    seed: source.meta.seed, records: source.meta.records,
  };
  yield `${JSON.stringify(head).slice(0, -1)},"store":{`;
  // The member order of Store.dump(), which JSON.stringify of the whole snapshot follows.
  for (const [i, name] of (['jobOffers', 'applicationSteps', 'jobboardActivities', 'jobboardJobOffers'] as const).entries()) {
    const table = source.tables[name];
    yield `${i === 0 ? '' : ','}${JSON.stringify(name)}:{"last":${JSON.stringify(table.last)},"rows":[`;
    for (let at = 0; at < table.seqs.length; at += rowsPerPiece) {
      const rows: [number, unknown][] = [];
      for (let j = at; j < Math.min(at + rowsPerPiece, table.seqs.length); j++) rows.push([table.seqs[j] as number, table.records[j]]);
      yield `${at === 0 ? '' : ','}${JSON.stringify(rows).slice(1, -1)}`;
    }
    yield ']}';
  }
  yield `,"users":${JSON.stringify(source.users)}}}`;
}

/**
 * Where a write to path lands: path itself, or the file a symbolic link at path points to (so the link stays a link
 * and the file it names is replaced). A dangling link or something other than a file is refused, saying which.
 */
export function writeTarget(path: string): string {
  let isLink: boolean;
  try {
    const stat = lstatSync(path);
    isLink = stat.isSymbolicLink();
    if (!isLink && !stat.isFile()) throw new Error(`${path} exists and is not a regular file`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path;
    throw error;
  }
  if (!isLink) return path;
  let target: string;
  try {
    target = realpathSync(path);
  } catch (error) {
    throw new Error(`${path} is a symbolic link whose target cannot be reached (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); point it at a file or remove it`, { cause: error });
  }
  const stat = lstatSync(target, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) throw new Error(`${path} is a symbolic link to ${target}, which is not a regular file`);
  return target;
}

/**
 * A fresh temporary file beside target, created exclusively (O_EXCL: never an existing file, nor a symbolic link
 * someone planted there) under a name no one can predict; the process id in it lets a later start clean up after
 * a killed one.
 */
function temporaryName(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
}
const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot flush a directory; the rename is still atomic.
  }
}

/**
 * Writes a file so that readers (and a crash at any moment) see either the old file or the whole new one:
 * a temporary file in the same directory, flushed to disk, then renamed over the target, then the directory
 * flushed so the rename itself survives a power cut. A symbolic link at path is written through (writeTarget).
 */
export function writeFileAtomic(path: string, text: string): void {
  const target = writeTarget(path);
  const temp = temporaryName(target);
  const fd = openSync(temp, EXCLUSIVE, 0o600);
  let renamed = false;
  try {
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
    renamed = true;
  } finally {
    if (!renamed) rmSync(temp, { force: true });
  }
  syncDirectory(dirname(target));
}

/** Bytes gathered before one write: pieces are small, a system call each would cost more than they do. */
const WRITE_BYTES = 1 << 20;

/**
 * writeFileAtomic for text in pieces, without blocking: each piece is produced between awaited writes, so requests
 * are served while a large store is saved. Same guarantees: exclusive temporary file, flushed, renamed over the
 * target (through a symbolic link), directory flushed.
 */
export async function writeFileAtomicAsync(path: string, pieces: Iterable<string>): Promise<void> {
  const target = writeTarget(path);
  const temp = temporaryName(target);
  const handle = await open(temp, EXCLUSIVE, 0o600);
  let renamed = false;
  try {
    try {
      const write = async (text: string): Promise<void> => {
        const bytes = Buffer.from(text, 'utf8');
        for (let at = 0; at < bytes.length;) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
      };
      let pending: string[] = [];
      let size = 0;
      for (const piece of pieces) {
        pending.push(piece);
        size += piece.length;
        if (size < WRITE_BYTES) continue;
        await write(pending.join(''));
        pending = [];
        size = 0;
      }
      await write(pending.join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
    renamed = true;
  } finally {
    if (!renamed) await rm(temp, { force: true });
  }
  syncDirectory(dirname(target));
}
