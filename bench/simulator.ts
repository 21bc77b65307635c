// The simulator under load, against references measured in the same run on the same machine, and the cost of
// seeding large stores. The machine is shared and noisy, so the ceiling and the simulator are measured in
// alternating rounds and compared by their medians; the server's CPU time per request is steadier still.
import { createFaker, jobboardActivity } from '../src/data/factories.js';
import { CONNECTIONS, load, median, medianRun, startChild, warmUp, type BenchSection, type Load, type LoadResult, type Table } from './run.js';

/** Goals on the 2-core development machine. */
export const GOALS = { getOneVsCeiling: 0.6, p99Ms: 10, seededRssBytes: 1.5 * 1024 ** 3 };
const ROUNDS = 3;
const ROUND_SECONDS = 3;
const SCENARIO_SECONDS = 5;
const SEED_SIZES = [100_000, 1_000_000];

async function token(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'rdx-client', client_secret: 'rdx-secret' }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token from the simulator (${res.status})`);
  return body.access_token;
}

/** ratio: the share of the ceiling's req/s (given when it was measured round by round), else from reference. */
function row(name: string, r: LoadResult, reference: number | undefined, ratio?: number): (string | number)[] {
  const share = ratio ?? (reference ? r.reqPerSec / reference : undefined);
  return [
    name,
    Math.round(r.reqPerSec),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    r.cpuPerRequest.toFixed(1),
    share === undefined ? '-' : `${Math.round(share * 100)}%`,
    `${r.errors}/${r.non2xx}`,
  ];
}

const url = (port: unknown, path: string): string => `http://127.0.0.1:${String(port)}${path}`;

async function underLoad(): Promise<Table> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  const ceilingServer = await startChild(['ceiling'], 10_000);
  const pageServer = await startChild(['page-reference'], 10_000);
  const sim = await startChild(['simulator', '1000'], 30_000);
  try {
    const baseUrl = url(sim.first['port'], '');
    const auth = { authorization: `Bearer ${await token(baseUrl)}` };
    const ceiling: Load = { url: url(ceilingServer.first['port'], '/'), headers: auth };
    const one: Load = { url: `${baseUrl}/ats/job-offers/JO-2026-000042`, headers: auth };
    await warmUp(ceiling);
    await warmUp(one);
    const ceilingRuns: LoadResult[] = [];
    const oneRuns: LoadResult[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const c = await load(ceilingServer, ceiling, ROUND_SECONDS);
      const o = await load(sim, one, ROUND_SECONDS);
      ceilingRuns.push(c);
      oneRuns.push(o);
      ratios.push(o.reqPerSec / c.reqPerSec);
    }
    const c = medianRun(ceilingRuns);
    const o = medianRun(oneRuns);
    rows.push(row('ceiling: bare node:http, fixed 1 KB JSON', c, undefined));
    rows.push(row('GET one job offer (vs ceiling: median of the rounds)', o, c.reqPerSec, median(ratios)));

    const pageReference: Load = { url: url(pageServer.first['port'], '/'), headers: auth };
    const list: Load = { url: `${baseUrl}/jobboard/activities?status=viewed&min_date=2026-03-01&max_date=2026-09-30`, headers: auth };
    await warmUp(pageReference);
    await warmUp(list);
    const p = await load(pageServer, pageReference, SCENARIO_SECONDS);
    const l = await load(sim, list, SCENARIO_SECONDS);
    rows.push(row('reference: bare node:http, 50-record page stringified per request', p, c.reqPerSec));
    rows.push(row('GET filtered list page (50 activities)', l, c.reqPerSec));

    const faker = createFaker(1);
    const batch: Load = {
      url: `${baseUrl}/jobboard/activities`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: 100 }, () => jobboardActivity(faker))),
    };
    await warmUp(batch);
    const b = await load(sim, batch, SCENARIO_SECONDS);
    rows.push(row('POST batch of 100 activities', b, c.reqPerSec));

    const ratio = median(ratios);
    notes.push(`GET one / ceiling per round: ${ratios.map((r) => `${Math.round(r * 100)}%`).join(', ')}; median ${Math.round(ratio * 100)}%`);
    notes.push(`goal GET one >= ${GOALS.getOneVsCeiling * 100}% of the ceiling: ${ratio >= GOALS.getOneVsCeiling ? 'met' : 'MISSED'}`);
    notes.push(`goal p99 < ${GOALS.p99Ms} ms at ${CONNECTIONS} connections, GET one: ${o.p99 < GOALS.p99Ms ? 'met' : 'MISSED'} (${o.p99.toFixed(1)} ms); `
      + `list page: ${l.p99 < GOALS.p99Ms ? 'met' : 'MISSED'} (${l.p99.toFixed(1)} ms, its bare reference ${p.p99.toFixed(1)} ms)`);
  } finally {
    await Promise.all([ceilingServer.stop(), pageServer.stop(), sim.stop()]);
  }
  return {
    title: `Simulator under load (autocannon, ${CONNECTIONS} connections, loopback; seed 1, 1000 records; `
      + `ceiling and GET one: median of ${ROUNDS} alternating ${ROUND_SECONDS} s rounds, others ${SCENARIO_SECONDS} s)`,
    columns: ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'vs ceiling', 'errors/non-2xx'],
    rows,
    notes,
  };
}

async function seeding(): Promise<Table> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const records of SEED_SIZES) {
    const child = await startChild(['seed', String(records)], 300_000, ['--expose-gc']);
    await child.stop();
    const m = child.first as { seconds: number; rss: number; heapUsed: number };
    rows.push([records.toLocaleString('en'), m.seconds.toFixed(1), `${(m.rss / 1024 ** 2).toFixed(0)} MiB`, `${(m.heapUsed / 1024 ** 2).toFixed(0)} MiB`]);
    if (records === 1_000_000) {
      notes.push(`goal 1M records under ${GOALS.seededRssBytes / 1024 ** 3} GiB RSS: ${m.rss < GOALS.seededRssBytes ? 'met' : 'MISSED'}`);
    }
  }
  return { title: 'Seeding (one child process each, RSS after a full GC)', columns: ['records', 'seconds', 'RSS', 'heap used'], rows, notes };
}

export const simulatorSection: BenchSection = {
  name: 'simulator',
  async run() {
    return [await underLoad(), await seeding()];
  },
};
