// Tasks side by side, at most `limit` at a time: the end-of-run sweep's DELETEs at the run's concurrency, and tests
// whose steps are whole runs or programs that do not depend on each other (on a 2-core machine two or three of them
// overlap their waits without slowing each other much). The results keep the tasks' order; the first failure is
// the failure.

/** Runs the tasks, `limit` at a time; resolves to their results in the tasks' order. */
export async function allLimited<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`allLimited: limit must be a positive integer, not ${limit}`);
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
