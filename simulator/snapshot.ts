// Snapshots of the simulator's store: one JSON document with a format name and version, the seed it started
// from, and every record with its sequence number (so ids, cursors and creation order survive). Used by
// `rdx simulate --state FILE`, by GET/PUT /__admin/snapshot and by the seed cache. A file that is not a snapshot
// of this version, or whose records break the schemas, is refused with what is wrong and where; nothing is
// loaded from it.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SCHEMA_BASE, schemaErrors } from '../src/spec/index.js';
import { TABLES, type Store, type StoreData } from './store.js';

export const SNAPSHOT_FORMAT = 'rdx-simulator-snapshot';
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
    (table['rows'] as unknown[]).forEach((row, i) => {
      if (problems.length > SHOWN * 4) return;
      if (!Array.isArray(row) || row.length !== 2 || !Number.isSafeInteger(row[0]) || !isObject(row[1])) {
        problems.push(`store.${name}.rows[${i}] must be [sequence number, record]`);
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

/**
 * Writes a file so that readers (and a crash at any moment) see either the old file or the whole new one:
 * a temporary file in the same directory, flushed to disk, then renamed over the target, then the directory
 * flushed so the rename itself survives a power cut.
 */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    const bytes = Buffer.from(text, 'utf8');
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
  try {
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some file systems cannot flush a directory; the rename is still atomic.
  }
}
