// Self-check runs side by side: each worker is a process of its own (node dist/src/selfcheck/worker.js) that runs one
// persona at a time and sends back its PersonaRun. A process, not a thread: every run is CPU-bound in one event loop,
// and a child process's coverage is collected by c8 as the test process's is. A run that mostly waits (RunPoolOptions
// alone) gets a process of its own beside them. With one worker the runs stay in this process, one after another.
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

export interface RunPoolOptions {
  /** The worker's entry: the compiled worker.js beside this file. */
  entry?: string;
  /**
   * Runs that mostly wait (a persona's rate limit, waited out for a minute or more): each gets a process of its own,
   * beside the `workers`, so that its waits do not hold a core's worker while other runs are queued.
   */
  alone?: (persona: Persona | undefined) => boolean;
}

/** Every run in this process, one after another: runs side by side in one process only share its one core. */
function inProcessPool<R>(inProcess: (persona: Persona | undefined, declare: boolean, both: boolean) => Promise<R>): RunPool<R> {
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

/**
 * A pool of `workers` processes, plus one process for each run `alone` picks; `inProcess` runs in this process
 * instead when there is one worker (every run, one after another).
 */
export function createRunPool<R>(
  workers: number,
  inProcess: (persona: Persona | undefined, declare: boolean, both: boolean) => Promise<R>,
  { entry = fileURLToPath(new URL('./worker.js', import.meta.url)), alone = () => false }: RunPoolOptions = {},
): RunPool<R> {
  if (workers <= 1) return inProcessPool(inProcess);
  const queue: Waiting<R>[] = [];
  const busy = new Map<ChildProcess, Waiting<R>>();
  const idle: ChildProcess[] = [];
  const children: ChildProcess[] = [];
  let nextId = 0;
  let failure: Error | undefined;
  /** Workers are started as runs need them: a pool whose runs all go alone starts none. */
  let pooled = 0;
  const dispatch = (): void => {
    while (queue.length > 0 && (idle.length > 0 || pooled < workers)) {
      give(idle.pop() ?? spawnWorker(true), queue.shift() as Waiting<R>);
    }
  };
  const give = (child: ChildProcess, job: Waiting<R>): void => {
    busy.set(child, job);
    child.send(job.request);
  };
  const fail = (error: Error): void => {
    failure ??= error;
    for (const job of [...busy.values(), ...queue.splice(0)]) job.reject(error);
    busy.clear();
  };
  const settle = (job: Waiting<R> | undefined, reply: RunReply<R>): void => {
    if (!job) return;
    if ('error' in reply) job.reject(new Error(reply.error));
    else job.resolve(reply.run);
  };
  /** A worker process; those `inPool` take the queue's runs one after another, the others one run and end. */
  const spawnWorker = (inPool: boolean): ChildProcess => {
    const child = fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    if (inPool) pooled += 1;
    child.on('message', (reply: RunReply<R>) => {
      const job = busy.get(child);
      busy.delete(child);
      settle(job, reply);
      if (!inPool) {
        child.disconnect();
        return;
      }
      idle.push(child);
      dispatch();
    });
    child.on('exit', (code, signal) => {
      const error = new Error(`a self-check worker ended (${signal ?? `exit code ${code}`}) with runs still to make`);
      if (!inPool) busy.get(child)?.reject(error);
      else if (busy.has(child) || queue.length > 0) fail(error);
      busy.delete(child);
    });
    return child;
  };

  return {
    run(persona, declare, both) {
      if (failure) return Promise.reject(failure);
      return new Promise<R>((resolve, reject) => {
        const job = { request: { id: nextId++, persona: persona?.name, declare, both }, resolve, reject };
        if (alone(persona)) return give(spawnWorker(false), job);
        queue.push(job);
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
