// `rdx simulate --state FILE`: the store is loaded from FILE at start when it exists, and written back whole and
// atomically (snapshot.ts) a moment after each change and on close, so a restart, or a crash at any instant,
// finds the last complete snapshot and never a torn one.
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../src/errors.js';
import { parseSnapshot, SnapshotError, writeFileAtomic, type Snapshot } from './snapshot.js';

/** How long after a change the file is written; changes meanwhile go into the same write. */
export const SAVE_DELAY_MS = 200;

/** The snapshot in path, or undefined when there is no file yet; a file that cannot be used is a usage error. */
export function readState(path: string): Snapshot | undefined {
  removeStaleTemporaries(path);
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
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
  const pattern = new RegExp(`^\\.${basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.tmp$`);
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

function isAlive(pid: number): boolean {
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

  constructor(readonly path: string, private readonly text: () => string) {}

  /** A change happened: write within SAVE_DELAY_MS (at most one write per delay, however many changes). */
  changed(): void {
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, SAVE_DELAY_MS).unref();
  }

  /** Writes now if anything changed since the last write. A failed write is reported, and retried on the next change. */
  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      writeFileAtomic(this.path, this.text());
    } catch (error) {
      this.dirty = true;
      process.stderr.write(`rdx simulator: could not save the state to ${this.path}: ${(error as Error).message}\n`);
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
