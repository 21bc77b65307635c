// Soak: a mixed workload from many concurrent clients against the simulator in a child process on loopback, for
// a bounded time (RDX_SOAK_SECONDS, default 20, after a warm-up). Clients read single records, walk list pages
// along meta.next_link, and write batches of activities; afterwards every written activity is looked for with a
// list walk. Goals: no errors, nothing lost or duplicated, and memory flat after warm-up once the records the
// run added are accounted for (their cost per record is measured on the seed data in the same child).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import type { BenchSection, Table } from './run.js';

const CLIENTS = 32;
const SEEDED = 20_000;
const BATCH = { min: 5, max: 40 };
/** Pages a walk follows during the load (the final check walks to the end). */
const WALK_PAGES = 5;
/** Memory the run may gain after warm-up beyond what its new records cost (journal, caches, allocator noise). */
const UNEXPLAINED_HEAP_LIMIT = 16 * 1024 * 1024;
/** RSS the steady phase may gain: allocator and GC timing noise, not growth. */
const STEADY_RSS_LIMIT = 32 * 1024 * 1024;
/** Requests per client, so a very fast machine also stops. */
const MAX_OPS_PER_CLIENT = 2_000_000;

interface ChildMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  records: number;
}

// --- the child: the simulator, answering memory questions over IPC -------------------------------------------

async function child(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const send = (m: unknown): void => {
    process.send?.(m);
  };
  const { startSimulator } = await import('../simulator/index.js');
  const { internalsOf } = await import('../simulator/internals.js');
  const { Store } = await import('../simulator/store.js');
  const { bodyJson } = await import('../simulator/json.js');
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, records: SEEDED, admin: false });
  // The baseline: what one activity of the soak's shape costs once stored, indexed and served (its JSON is
  // cached per record), measured on a scratch store in this process before any load.
  const scratch = new Store();
  gc?.();
  const bare = process.memoryUsage().heapUsed;
  for (let i = 1; i <= SEEDED; i++) {
    scratch.jobboardActivities.insert((id) => ({ id, ...soakActivity(0, i, 'soak-baseline') }));
  }
  bodyJson({ message: '', data: scratch.jobboardActivities.values() });
  gc?.();
  const heapPerRecord = (process.memoryUsage().heapUsed - bare) / SEEDED;
  scratch.clear();
  const total = (): number => Object.values(internalsOf(sim).store.counts()).reduce((a, b) => a + b, 0);
  send({
    port: Number(new URL(sim.baseUrl).port), jobOffers: sim.seeded.jobOffers, applicationSteps: sim.seeded.applicationSteps,
    clientId: sim.options.clientId, clientSecret: sim.options.clientSecret, heapPerRecord,
  });
  process.on('message', (m) => {
    if (m === 'memory') {
      const rss = process.memoryUsage.rss();
      gc?.();
      const m = process.memoryUsage();
      send({ rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, records: total() } satisfies ChildMemory);
    } else if (m === 'stop') void sim.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => void sim.close().then(() => process.exit(0)));
}

function answer<T>(proc: ChildProcess, ask: string | undefined, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.off('message', onMessage);
      reject(new Error(`soak child gave no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (m: unknown): void => {
      clearTimeout(timer);
      proc.off('message', onMessage);
      resolve(m as T);
    };
    proc.on('message', onMessage);
    if (ask) proc.send(ask);
  });
}

// --- the load ----------------------------------------------------------------------------------------------

type Op = 'read' | 'walk' | 'write';
const MIXED: readonly [Op, number][] = [['read', 60], ['walk', 25], ['write', 15]];
/** After the mixed phase: the same reads and walks, no writes, so the store stays as it is and memory must too. */
const STEADY: readonly [Op, number][] = [['read', 70], ['walk', 30]];

interface Tally {
  requests: number;
  errors: number;
  latencies: number[];
}

interface Shared {
  base: string;
  agent: Agent;
  token: string;
  marker: string;
  jobOffers: number;
  applicationSteps: number;
  created: Set<number>;
  createdTwice: number;
  errorSamples: string[];
  tallies: Record<Op, Tally>;
  /** While false, answers are checked but not counted (warm-up). */
  counting: boolean;
}

const pad = (n: number): string => String(n).padStart(6, '0');

/** The activities the soak writes: each client numbers its own, all under the run's status marker. */
function soakActivity(client: number, seq: number, marker: string): { recorded_at: string; job_offer_reference: string; status: string; count: number } {
  return { recorded_at: `2026-0${1 + (seq % 9)}-1${seq % 10}`, job_offer_reference: `SOAK-${client}-${seq}`, status: marker, count: seq % 97 };
}

async function call(s: Shared, op: Op, method: 'GET' | 'POST', url: string, body?: string): Promise<{ status: number; json: unknown } | undefined> {
  const started = performance.now();
  const tally = s.tallies[op];
  try {
    const res = await request(url, {
      method, dispatcher: s.agent, headersTimeout: 10_000, bodyTimeout: 10_000,
      headers: { authorization: `Bearer ${s.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
    });
    const json: unknown = await res.body.json();
    if (s.counting) {
      tally.requests += 1;
      tally.latencies.push(performance.now() - started);
    }
    return { status: res.statusCode, json };
  } catch (error) {
    fail(s, op, `${method} ${url.slice(0, 80)}: ${(error as Error).message}`);
    return undefined;
  }
}

function fail(s: Shared, op: Op, what: string): void {
  s.tallies[op].errors += 1;
  if (s.errorSamples.length < 5) s.errorSamples.push(what);
}

/** Follows next_link from `url` for at most `pages` pages and `ms` milliseconds; every id must be new within the walk. */
async function walk(s: Shared, op: Op, url: string, pages: number, ms = 60_000, seen = new Set<number>()): Promise<Set<number>> {
  const deadline = performance.now() + ms;
  let next: string | null = url;
  for (let page = 0; next && page < pages; page++) {
    if (performance.now() > deadline) {
      fail(s, op, `walk: not at the end after ${page} pages and ${ms} ms`);
      return seen;
    }
    const res = await call(s, op, 'GET', next);
    if (!res) return seen;
    const body = res.json as { data?: { id?: number }[]; meta?: { next_link?: string | null } };
    if (res.status !== 200 || !Array.isArray(body.data)) {
      fail(s, op, `GET ${next.slice(0, 80)}: status ${res.status}`);
      return seen;
    }
    for (const record of body.data) {
      if (typeof record.id !== 'number') continue;
      if (seen.has(record.id)) fail(s, op, `walk: id ${record.id} came twice`);
      seen.add(record.id);
    }
    next = body.meta?.next_link ?? null;
  }
  return seen;
}

async function client(s: Shared, index: number, until: () => boolean, weights: readonly [Op, number][]): Promise<void> {
  let seq = 0;
  let state = (index + 1) * 2_654_435_761;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const total = weights.reduce((n, [, w]) => n + w, 0);
  for (let ops = 0; ops < MAX_OPS_PER_CLIENT && !until(); ops++) {
    let roll = random() * total;
    const op = (weights.find(([, w]) => (roll -= w) < 0) ?? weights[0] as [Op, number])[0];
    if (op === 'read') {
      const url = random() < 0.5
        ? `${s.base}/ats/job-offers/JO-2026-${pad(1 + Math.floor(random() * s.jobOffers))}`
        : `${s.base}/ats/application-steps/${1 + Math.floor(random() * s.applicationSteps)}`;
      const res = await call(s, op, 'GET', url);
      if (res && res.status !== 200) fail(s, op, `GET ${url}: status ${res.status}`);
    } else if (op === 'walk') {
      // Half the walks run over the activities being written right now: each record must still come once.
      const url = random() < 0.5
        ? `${s.base}/jobboard/activities?status=viewed&min_date=2026-03-01&max_date=2026-09-30`
        : `${s.base}/jobboard/activities?status=${s.marker}`;
      await walk(s, op, url, WALK_PAGES);
    } else {
      const n = BATCH.min + Math.floor(random() * (BATCH.max - BATCH.min + 1));
      const items = Array.from({ length: n }, () => soakActivity(index, ++seq, s.marker));
      const res = await call(s, op, 'POST', `${s.base}/jobboard/activities`, JSON.stringify(items));
      const data = (res?.json as { data?: { id?: number }[] } | undefined)?.data;
      if (!res) continue;
      if (res.status !== 201 || !Array.isArray(data) || data.length !== n) {
        fail(s, op, `POST a batch of ${n}: status ${res.status}, ${Array.isArray(data) ? data.length : 'no'} records back`);
        continue;
      }
      for (const record of data) {
        if (typeof record.id !== 'number') fail(s, op, 'a created activity has no id');
        else if (s.created.has(record.id)) s.createdTwice += 1;
        else s.created.add(record.id);
      }
    }
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** The child's first answer: where its simulator listens, what it holds, and the credentials. */
interface FirstAnswer { port: number; jobOffers: number; applicationSteps: number; clientId: string; clientSecret: string; heapPerRecord: number }
const emptyTally = (): Tally => ({ requests: 0, errors: 0, latencies: [] });

export async function soak(seconds: number): Promise<Table[]> {
  const warmSeconds = Math.max(2, Math.round(seconds * 0.15));
  const steadySeconds = Math.max(2, Math.round(seconds * 0.25));
  const proc = fork(fileURLToPath(import.meta.url), ['--soak-child'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const agent = new Agent({ connections: CLIENTS, keepAliveTimeout: 10_000 });
  try {
    const first = await answer<FirstAnswer>(proc, undefined, 120_000);
    const base = `http://127.0.0.1:${first.port}`;
    const tokenRes = await request(`${base}/oauth2/token`, {
      method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: first.clientId, client_secret: first.clientSecret }),
    });
    const token = ((await tokenRes.body.json()) as { access_token: string }).access_token;
    const shared: Shared = {
      base, agent, token, marker: `soak-${randomBytes(4).toString('hex')}`, jobOffers: first.jobOffers, applicationSteps: first.applicationSteps,
      created: new Set(), createdTwice: 0, errorSamples: [], counting: false,
      tallies: { read: emptyTally(), walk: emptyTally(), write: emptyTally() },
    };
    const atStart = await answer<ChildMemory>(proc, 'memory', 30_000);

    let phaseEnd = performance.now() + warmSeconds * 1000;
    let measuring = false;
    let measuredFrom = 0;
    const until = (): boolean => {
      if (performance.now() < phaseEnd) return false;
      return measuring;
    };
    // The same clients run on from the warm-up into the measured phase; only then do the tallies count.
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(shared, i, until, MIXED));
    const warmTimer = setTimeout(() => {
      void answer<ChildMemory>(proc, 'memory', 30_000).then((m) => {
        afterWarmUp = m;
        measuring = true;
        shared.counting = true;
        measuredFrom = performance.now();
        phaseEnd = measuredFrom + seconds * 1000;
      }, (error: unknown) => {
        warmError = error;
        measuring = true;
        phaseEnd = 0;
      });
    }, warmSeconds * 1000);
    let afterWarmUp: ChildMemory | undefined;
    let warmError: unknown;
    await Promise.all(clients);
    clearTimeout(warmTimer);
    if (warmError) throw warmError;
    const measuredSeconds = (performance.now() - measuredFrom) / 1000;
    const atEnd = await answer<ChildMemory>(proc, 'memory', 30_000);
    // The steady phase: the answers are still checked (errors count), but throughput is the mixed phase's.
    shared.counting = false;
    const steadyEnd = performance.now() + steadySeconds * 1000;
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(shared, CLIENTS + i, () => performance.now() >= steadyEnd, STEADY)));
    const afterSteady = await answer<ChildMemory>(proc, 'memory', 30_000);

    // Every activity written must be stored exactly once: one walk over the run's marker, to the end.
    const stored = await walk(shared, 'walk', `${base}/jobboard/activities?status=${shared.marker}`, 1_000_000, 120_000);
    const lost = [...shared.created].filter((id) => !stored.has(id)).length;
    const unexpected = [...stored].filter((id) => !shared.created.has(id)).length;

    const warm = afterWarmUp as ChildMemory;
    const added = atEnd.records - warm.records;
    const explained = added * first.heapPerRecord;
    const unexplained = atEnd.heapUsed - warm.heapUsed - explained;
    const errors = Object.values(shared.tallies).reduce((n, t) => n + t.errors, 0);
    const all = Object.values(shared.tallies).flatMap((t) => t.latencies).sort((a, b) => a - b);
    const totalRequests = Object.values(shared.tallies).reduce((n, t) => n + t.requests, 0);

    const opRows = (Object.entries(shared.tallies) as [Op, Tally][]).map(([op, t]) => {
      const sorted = [...t.latencies].sort((a, b) => a - b);
      return [op, t.requests, Math.round(t.requests / measuredSeconds), percentile(sorted, 50).toFixed(1), percentile(sorted, 99).toFixed(1), t.errors];
    });
    opRows.push(['all', totalRequests, Math.round(totalRequests / measuredSeconds), percentile(all, 50).toFixed(1), percentile(all, 99).toFixed(1), errors]);
    const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');
    return [
      {
        title: `Soak: ${CLIENTS} clients, mixed workload for ${seconds} s after a ${warmSeconds} s warm-up (simulator in a child process, ${SEEDED.toLocaleString('en')} seeded records, loopback)`,
        columns: ['operation', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
        rows: opRows,
        notes: [
          `read: GET one job offer or application step; walk: up to ${WALK_PAGES} list pages along meta.next_link (half of them over the activities being written); write: POST a batch of ${BATCH.min}–${BATCH.max} activities.`,
          ...shared.errorSamples.map((e) => `error: ${e}`),
        ],
      },
      {
        title: 'Soak: integrity and memory',
        columns: ['measure', 'value', 'goal'],
        rows: [
          ['errors in all phases (transport, non-2xx, a record twice in one walk)', errors, `0: ${met(errors === 0)}`],
          ['activities written (201, ids returned)', shared.created.size, '-'],
          ['activities found by a walk to the end afterwards', stored.size, '-'],
          ['lost (written, not found) / duplicated ids / found but never written', `${lost} / ${shared.createdTwice} / ${unexpected}`, `0 / 0 / 0: ${met(lost === 0 && shared.createdTwice === 0 && unexpected === 0)}`],
          ['simulator RSS: start / after warm-up / end', `${mib(atStart.rss)} / ${mib(warm.rss)} / ${mib(atEnd.rss)}`, '-'],
          ['heap used / heap reserved / external after GC: after warm-up', `${mib(warm.heapUsed)} / ${mib(warm.heapTotal)} / ${mib(warm.external)}`, '-'],
          ['heap used / heap reserved / external after GC: end', `${mib(atEnd.heapUsed)} / ${mib(atEnd.heapTotal)} / ${mib(atEnd.external)}`, '-'],
          [`records added after warm-up × heap per stored activity (baseline measured in the child: ${Math.round(first.heapPerRecord)} B)`, `${added.toLocaleString('en')} × ${Math.round(first.heapPerRecord)} B = ${mib(explained)}`, '-'],
          ['heap growth after warm-up not explained by added records', mib(unexplained), `< ${mib(UNEXPLAINED_HEAP_LIMIT)}: ${met(unexplained < UNEXPLAINED_HEAP_LIMIT)}`],
          [`steady phase (${steadySeconds} s of reads and walks, no writes): RSS start → end`, `${mib(atEnd.rss)} → ${mib(afterSteady.rss)}`,
            `flat (< +${mib(STEADY_RSS_LIMIT)}): ${met(afterSteady.rss - atEnd.rss < STEADY_RSS_LIMIT)}`],
          ['steady phase: heap used after GC, start → end', `${mib(atEnd.heapUsed)} → ${mib(afterSteady.heapUsed)}`,
            `flat (< +${mib(UNEXPLAINED_HEAP_LIMIT)}): ${met(afterSteady.heapUsed - atEnd.heapUsed < UNEXPLAINED_HEAP_LIMIT)}`],
        ],
        notes: [
          `RDX_SOAK_SECONDS sets the measured time (now ${seconds} s); the warm-up is 15% of it and the steady phase 25%, each at least 2 s.`,
          'The mixed phase adds records, so the heap must grow by what they cost and no more; the steady phase adds none, so memory must stay where it is.',
        ],
      },
    ];
  } finally {
    await agent.close().catch(() => undefined);
    await new Promise<void>((done) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return done();
      const kill = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      proc.once('exit', () => {
        clearTimeout(kill);
        done();
      });
      if (proc.connected) proc.send('stop');
      else proc.kill('SIGTERM');
    });
  }
}

/** RDX_SOAK_SECONDS, bounded: a typo must not start a day-long run. */
export function soakSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['RDX_SOAK_SECONDS'];
  if (raw === undefined || raw === '') return 20;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 1 || n > 3_600) throw new Error(`RDX_SOAK_SECONDS must be a number of seconds from 1 to 3600, not ${JSON.stringify(raw)}`);
  return Math.round(n);
}

export const soakSection: BenchSection = {
  name: 'soak',
  run: () => soak(soakSeconds()),
};

if (process.argv.includes('--soak-child')) {
  child().catch((error: unknown) => {
    process.stderr.write(`soak child: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
