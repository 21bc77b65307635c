// The simulator against bare node:http references measured in the same run on the same machine (issue #17's goals).
// The machine is shared and noisy, so every load scenario alternates reference and simulator in short rounds and
// compares them by the median of the per-round ratios; start-up is the median of several cold starts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFaker, jobboardActivity } from '../src/data/factories.js';
import { CONNECTIONS, RDX_CLI, load, median, medianRun, startChild, warmUp, type BenchSection, type Load, type LoadResult, type Subject, type Table } from './run.js';

/** Goals on the 2-core development machine: ratios to a reference measured in the same run (issue #17). */
export const GOALS = {
  startupMs: 500,
  getOneVsCeiling: 0.7,
  listVsSamePage: 0.8,
  /** The simulator's p99 at most this many times the bare reference's. */
  p99VsBare: 2,
  batchVsParse: 0.5,
  rss1mBytes: 902 * 1024 ** 2,
};
const ROUNDS = Number(process.env['RDX_BENCH_ROUNDS'] ?? 3);
const ROUND_SECONDS = Number(process.env['RDX_BENCH_SECONDS'] ?? 2);
const STARTS = 5;
const BATCH_ITEMS = 10;
const MILLION = 1_000_000;

const url = (port: unknown, path: string): string => `http://127.0.0.1:${String(port)}${path}`;

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

export interface Versus {
  reference: LoadResult;
  subject: LoadResult;
  /** Median over rounds of subject req/s ÷ reference req/s. */
  ratio: number;
  /** Median over rounds of subject p99 ÷ reference p99. */
  p99Ratio: number;
  /** Each round's subject req/s ÷ reference req/s. */
  rounds: number[];
  /** The reference's fastest round ÷ its slowest: how much the machine's speed changed during the scenario. */
  referenceSpread: number;
}

/** Reference and simulator in alternating rounds; ratios per round, then their median. */
async function versus(reference: Subject, referenceLoad: Load, subject: Subject, subjectLoad: Load): Promise<Versus> {
  await warmUp(referenceLoad);
  await warmUp(subjectLoad);
  const refs: LoadResult[] = [];
  const subs: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    refs.push(await load(reference, referenceLoad, ROUND_SECONDS));
    subs.push(await load(subject, subjectLoad, ROUND_SECONDS));
  }
  return compareRounds(refs, subs);
}

/** The rounds of a scenario compared: the median of the per-round ratios (not the ratio of the medians). */
export function compareRounds(refs: LoadResult[], subs: LoadResult[]): Versus {
  const ratios = subs.map((s, i) => s.reqPerSec / (refs[i] as LoadResult).reqPerSec);
  const p99s = subs.map((s, i) => s.p99 / Math.max((refs[i] as LoadResult).p99, 1));
  const refRates = refs.map((r) => r.reqPerSec);
  return {
    reference: medianRun(refs), subject: medianRun(subs), ratio: median(ratios), p99Ratio: median(p99s), rounds: ratios,
    referenceSpread: Math.max(...refRates) / Math.max(Math.min(...refRates), 1),
  };
}

/** ms from spawning a process to the first 200 of `path` on the port it prints. */
function timeToFirstAnswer(args: string[], answer: (port: string) => Promise<boolean>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let asked = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no first answer from ${args.join(' ')} within 30 s`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const port = /127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (!port || asked) return;
      asked = true;
      answer(port).then((ok) => {
        const ms = performance.now() - started;
        clearTimeout(timer);
        child.kill('SIGKILL');
        if (ok) resolve(ms);
        else reject(new Error(`${args.join(' ')}: the first answer was not 200`));
      }, (error: unknown) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(error as Error);
      });
    });
  });
}

const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('{}')).listen(0, '127.0.0.1', function () { console.log('127.0.0.1:' + this.address().port); });`;

async function startup(): Promise<{ simulator: number; bare: number }> {
  const simulator: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    // The first answer that needs the data: a token, then the first page of job offers.
    simulator.push(await timeToFirstAnswer([RDX_CLI, 'simulate', '--port', '0', '--records', '1000'], async (port) => {
      const base = url(port, '');
      const res = await fetch(`${base}/ats/job-offers`, { headers: { authorization: `Bearer ${await token(base)}` } });
      await res.arrayBuffer();
      return res.status === 200;
    }));
    bare.push(await timeToFirstAnswer(['-e', BARE_SERVER], async (port) => (await fetch(url(port, '/'))).status === 200));
  }
  return { simulator: median(simulator), bare: median(bare) };
}

/** A ratio with two decimals, or three when two would round it onto its goal (0.497 is not shown as 0.50 and missed). */
export const pct = (ratio: number, goal?: number): string => `${ratio.toFixed(goal !== undefined && Number(ratio.toFixed(2)) === goal && ratio !== goal ? 3 : 2)}×`;
const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');

/** The ratio, goal and verdict cells of a row: a ratio `at least` (≥) or `at most` (≤) its goal meets it. */
export function goalCells(ratio: number, goal: number, bound: 'at least' | 'at most'): [string, string, string] {
  return bound === 'at least'
    ? [pct(ratio, goal), `≥ ${goal}×`, met(ratio >= goal)]
    : [pct(ratio, goal), `≤ ${goal}×`, met(ratio <= goal)];
}
const rps = (r: LoadResult): string => `${Math.round(r.reqPerSec)} req/s, p99 ${r.p99.toFixed(0)} ms`;

async function goals(): Promise<Table> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];

  const start = await startup();
  rows.push([
    'start-up to first answer (1,000 records; token + first list page)', `${Math.round(start.simulator)} ms`,
    `${Math.round(start.bare)} ms (bare node:http)`, pct(start.simulator / start.bare), `< ${GOALS.startupMs} ms`,
    met(start.simulator < GOALS.startupMs),
  ]);

  const dir = mkdtempSync(join(tmpdir(), 'rdx-bench-'));
  const sim = await startChild(['simulator', '1000'], 30_000);
  const ceiling = await startChild(['ceiling'], 10_000);
  const parse = await startChild(['parse-reference'], 10_000);
  let page: Subject | undefined;
  try {
    const baseUrl = url(sim.first['port'], '');
    const auth = { authorization: `Bearer ${await token(baseUrl)}` };

    const one = await versus(ceiling, { url: url(ceiling.first['port'], '/'), headers: auth }, sim, { url: `${baseUrl}/ats/job-offers/JO-2026-000042`, headers: auth });
    rows.push(['GET one job offer vs bare (fixed 1 KB JSON)', rps(one.subject), rps(one.reference), ...goalCells(one.ratio, GOALS.getOneVsCeiling, 'at least')]);
    rows.push(['  p99, GET one vs bare', `${one.subject.p99.toFixed(0)} ms`, `${one.reference.p99.toFixed(0)} ms`, ...goalCells(one.p99Ratio, GOALS.p99VsBare, 'at most')]);

    const listPath = '/jobboard/activities?status=viewed&min_date=2026-03-01&max_date=2026-12-31';
    const pageText = await (await fetch(`${baseUrl}${listPath}`, { headers: auth })).text();
    const pageFile = join(dir, 'page.json');
    writeFileSync(pageFile, pageText);
    page = await startChild(['page-reference', pageFile], 10_000);
    const count = (JSON.parse(pageText) as { data: unknown[] }).data.length;
    const list = await versus(page, { url: url(page.first['port'], '/'), headers: auth }, sim, { url: `${baseUrl}${listPath}`, headers: auth });
    rows.push([`GET a list page (${count} activities, filtered) vs bare sending the same page`, rps(list.subject), rps(list.reference), ...goalCells(list.ratio, GOALS.listVsSamePage, 'at least')]);
    rows.push(['  p99, list page vs bare', `${list.subject.p99.toFixed(0)} ms`, `${list.reference.p99.toFixed(0)} ms`, ...goalCells(list.p99Ratio, GOALS.p99VsBare, 'at most')]);

    const faker = createFaker(1);
    const body = JSON.stringify(Array.from({ length: BATCH_ITEMS }, () => jobboardActivity(faker)));
    const post = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body };
    const batch = await versus(parse, { url: url(parse.first['port'], '/'), ...post }, sim, { url: `${baseUrl}/jobboard/activities`, ...post });
    rows.push([`POST a ${BATCH_ITEMS}-item batch (${body.length} B) vs bare read+parse+answer`, rps(batch.subject), rps(batch.reference), ...goalCells(batch.ratio, GOALS.batchVsParse, 'at least')]);
    const scenarios = [['GET one', one], ['list', list], ['POST batch', batch]] as const;
    for (const [name, v] of scenarios) {
      if (v.subject.errors + v.subject.non2xx > 0) notes.push(`${name}: ${v.subject.errors} errors, ${v.subject.non2xx} non-2xx answers`);
    }
    // The VM this is developed on changes speed from one minute to the next, and a slow phase slows the simulator
    // (whose heap grows) more than the bare references: the rounds show whether a ratio met such a phase.
    notes.push(`each round's ratio, and how far the reference's own speed moved across its rounds (fastest ÷ slowest): `
      + scenarios.map(([name, v]) => `${name} ${v.rounds.map((r) => r.toFixed(2)).join(', ')} (reference ${v.referenceSpread.toFixed(2)}×)`).join('; '));
    notes.push(`server CPU per request (µs), simulator / reference: GET one ${one.subject.cpuPerRequest.toFixed(0)} / ${one.reference.cpuPerRequest.toFixed(0)}, `
      + `list ${list.subject.cpuPerRequest.toFixed(0)} / ${list.reference.cpuPerRequest.toFixed(0)}, POST ${batch.subject.cpuPerRequest.toFixed(0)} / ${batch.reference.cpuPerRequest.toFixed(0)}`);
  } finally {
    await Promise.all([sim.stop(), ceiling.stop(), parse.stop(), page?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }

  const seeded = await startChild(['seed', String(MILLION)], 300_000, ['--expose-gc']);
  await seeded.stop();
  const m = seeded.first as { seconds: number; rss: number };
  rows.push(['RSS with 1M records (after a full GC)', `${(m.rss / 1024 ** 2).toFixed(0)} MiB`, `seeded in ${m.seconds.toFixed(1)} s`, '-', `≤ ${GOALS.rss1mBytes / 1024 ** 2} MiB`, met(m.rss <= GOALS.rss1mBytes)]);

  return {
    title: `Simulator vs bare node:http (autocannon, ${CONNECTIONS} connections, loopback; seed 1, 1,000 records; `
      + `median of ${ROUNDS} alternating ${ROUND_SECONDS} s rounds per scenario; start-up: median of ${STARTS})`,
    columns: ['measure', 'simulator', 'reference', 'ratio', 'goal', ''],
    rows,
    notes,
  };
}

export const simulatorSection: BenchSection = {
  name: 'simulator',
  async run() {
    return [await goals()];
  },
};
