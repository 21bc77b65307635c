// `rdx simulate --state FILE`: the store is loaded from FILE at start when it exists, and written back whole and
// atomically (snapshot.ts) a moment after each change and on close, so a restart, or a crash at any instant,
// finds the last complete snapshot and never a torn one. A save takes the store as it is at one instant (record
// references, not text) and then serialises and writes it in pieces between awaited writes: at 200k records the
// whole text took some 570 ms of blocked event loop when written in one go (bench: `npm run bench -- state`).
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../src/errors.js';
import { SNAPSHOT_MAX_BYTES, parseSnapshot, snapshotPieces, SnapshotError, writeFileAtomicAsync, writeTarget, type Snapshot, type SnapshotSource } from './snapshot.js';

/** How long after a change the file is written; changes meanwhile go into the same write. */
export const SAVE_DELAY_MS = 200;

/** The snapshot in path, or undefined when there is no file yet; a file that cannot be used is a usage error. */
export function readState(path: string): Snapshot | undefined {
  let target: string;
  try {
    // A symbolic link is followed (and later written through); a dangling one, or a directory, stops start-up here.
    target = writeTarget(path);
  } catch (error) {
    throw new UsageError(`--state ${path}: cannot be used: ${(error as Error).message}`);
  }
  removeStaleTemporaries(target);
  if (!existsSync(target)) return undefined;
  let text: string;
  try {
    // By size before reading: a file of gigabytes is refused at once, not read whole first.
    const size = statSync(target).size;
    if (size > SNAPSHOT_MAX_BYTES) {
      throw new UsageError(`--state ${path}: refused, ${size} bytes is more than a snapshot can be (${SNAPSHOT_MAX_BYTES} bytes); move it away or name another file`);
    }
    text = readFileSync(target, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--state ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    return parseSnapshot(text);
  } catch (error) {
    if (error instanceof SnapshotError) throw new UsageError(`--state ${path}: refused, ${error.message}; move it away or name another file`);
    throw error;
  }
}

/** Temporary files of writes a killed process never finished (their process is gone). */
function removeStaleTemporaries(path: string): void {
  const pattern = new RegExp(`^\\.${basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.(?:[0-9a-f]{16}\\.)?tmp$`);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!pid || isAlive(pid)) continue;
    rmSync(join(dirname(path), name), { force: true });
  }
}

/** Whether a process of that id runs (one of another user's counts: EPERM). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  /** The save under way; changes meanwhile are saved after it. */
  private saving: Promise<void> | undefined;
  private changedWhileSaving = false;
  private closed = false;

  /** source: the store as it is now (snapshotSource), taken synchronously when a save begins. */
  constructor(readonly path: string, private readonly source: () => SnapshotSource) {}

  /** A change happened: write within SAVE_DELAY_MS (at most one write per delay, however many changes). */
  changed(): void {
    this.dirty = true;
    if (this.saving) this.changedWhileSaving = true;
    else this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, SAVE_DELAY_MS).unref();
  }

  /** Starts a save of the store as it is now (or joins the one under way). A failed save is reported, and retried on the next change. */
  private save(): Promise<void> {
    if (this.saving) return this.saving;
    this.dirty = false;
    this.changedWhileSaving = false;
    const source = this.source();
    this.saving = writeFileAtomicAsync(this.path, snapshotPieces(source)).catch((error: unknown) => {
      this.dirty = true;
      process.stderr.write(`rdx simulator: could not save the state to ${this.path}: ${(error as Error).message}\n`);
    }).finally(() => {
      this.saving = undefined;
      if (this.changedWhileSaving) this.schedule();
    });
    return this.saving;
  }

  /** Settles once the file holds every change made before the call (or the write failed and was reported). */
  async flush(): Promise<void> {
    // A save begun meanwhile (after this call) holds this call's changes too.
    while (this.saving) await this.saving;
    if (!this.dirty) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.save();
  }

  /** No more scheduled saves; the last changes are written before it settles. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
