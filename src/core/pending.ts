// What the process is awaiting, by name. Node ends a process whose event loop has emptied even in the middle of an
// await, with whatever exit code was set (a wait on an unref'd timer did that: issue 36). The CLI's exit path
// (src/cli/exit.ts) fails such an end and names what was still pending from here, instead of reporting a verdict
// nobody computed.

const pending = new Map<symbol, string>();

/** Awaits work under a name that stillPending() reports while it is under way. */
export async function awaiting<T>(what: string, work: Promise<T> | (() => Promise<T>)): Promise<T> {
  const key = Symbol(what);
  pending.set(key, what);
  try {
    return await (typeof work === 'function' ? work() : work);
  } finally {
    pending.delete(key);
  }
}

/** The names of the waits under way, oldest first, each once. */
export function stillPending(): string[] {
  return [...new Set(pending.values())];
}
