// Self-check runs side by side: each worker is a process of its own (node dist/src/selfcheck/worker.js) that runs one
// persona at a time and sends back its PersonaRun. A process, not a thread: every run is CPU-bound in one event loop,
// and a child process's coverage is collected by c8 as the test process's is. With one worker the runs stay in this
// process, one after another.
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Persona } from '../../simulator/personas/index.js';

/** One run asked of a worker: the persona by name (none: the clean simulator). */
export interface RunRequest {
  id: number;
  persona: string | undefined;
  declare: boolean;
  both: boolean;
}

export type RunReply<R> = { id: number; run: R } | { id: number; error: string };

/** RDX_SELFCHECK_WORKERS, else one per core up to 2 (beyond 2 a run waits on its simulator as much as it gains). */
export function selfCheckWorkers(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const asked = Number(env['RDX_SELFCHECK_WORKERS']);
  if (Number.isInteger(asked) && asked >= 1) return asked;
  return Math.max(1, Math.min(2, cores));
}

export interface RunPool<R> {
  run(persona: Persona | undefined, declare: boolean, both: boolean): Promise<R>;
  close(): Promise<void>;
}

type Waiting<R> = { request: RunRequest; resolve: (run: R) => void; reject: (error: Error) => void };

/**
 * A pool of `workers` processes (entry: the compiled worker.js beside this file); `inProcess` runs in this process
 * instead when there is one worker.
 */
export function createRunPool<R>(
  workers: number,
  inProcess: (persona: Persona | undefined, declare: boolean, both: boolean) => Promise<R>,
  entry = fileURLToPath(new URL('./worker.js', import.meta.url)),
): RunPool<R> {
  if (workers <= 1) {
    // One after another: runs side by side in one process only share its one core.
    let last: Promise<unknown> = Promise.resolve();
    return {
      run(persona, declare, both) {
        const run = last.then(() => inProcess(persona, declare, both));
        last = run.catch(() => undefined);
        return run;
      },
      close: async () => undefined,
    };
  }
  const queue: Waiting<R>[] = [];
  const busy = new Map<ChildProcess, Waiting<R>>();
  const idle: ChildProcess[] = [];
  let nextId = 0;
  let failure: Error | undefined;

  const dispatch = (): void => {
    while (idle.length > 0 && queue.length > 0) {
      const child = idle.pop() as ChildProcess;
      const job = queue.shift() as Waiting<R>;
      busy.set(child, job);
      child.send(job.request);
    }
  };
  const fail = (error: Error): void => {
    failure ??= error;
    for (const job of [...busy.values(), ...queue.splice(0)]) job.reject(error);
    busy.clear();
  };
  const children = Array.from({ length: workers }, () => {
    const child = fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (reply: RunReply<R>) => {
      const job = busy.get(child);
      busy.delete(child);
      idle.push(child);
      if (job) {
        if ('error' in reply) job.reject(new Error(reply.error));
        else job.resolve(reply.run);
      }
      dispatch();
    });
    child.on('exit', (code, signal) => {
      if (busy.has(child) || queue.length > 0) fail(new Error(`a self-check worker ended (${signal ?? `exit code ${code}`}) with runs still to make`));
    });
    idle.push(child);
    return child;
  });

  return {
    run(persona, declare, both) {
      if (failure) return Promise.reject(failure);
      return new Promise<R>((resolve, reject) => {
        queue.push({ request: { id: nextId++, persona: persona?.name, declare, both }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      // Disconnected, a worker ends on its own, and writes its coverage (NODE_V8_COVERAGE) as it does.
      await Promise.all(children.map((child) => new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        if (child.connected) child.disconnect();
      })));
    },
  };
}
