// What a hostile-target test measures around a run: peak RSS growth (sampled), and any unhandled rejection or
// uncaught exception while it ran; plus a time bound on a promise.

export interface Watched {
  /** Highest RSS seen minus the RSS at the start, in bytes. */
  peakRssGrowth: number;
  rejections: string[];
  exceptions: string[];
}

export interface Watch {
  stop(): Watched;
}

export function watch(sampleMs = 25): Watch {
  const start = process.memoryUsage.rss();
  let peak = start;
  const rejections: string[] = [];
  const exceptions: string[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason instanceof Error ? reason.stack ?? reason.message : String(reason));
  };
  const onException = (error: Error): void => {
    exceptions.push(error.stack ?? error.message);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, sampleMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtExceptionMonitor', onException);
      return { peakRssGrowth: peak - start, rejections, exceptions };
    },
  };
}

/** The promise's outcome, or a rejection naming `what` once `ms` have passed (the timer never outlives it). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
