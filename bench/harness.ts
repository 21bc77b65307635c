// The harness's own speed, as ratios to baselines measured in the same run: its exchange rate against its own
// requests replayed by a bare undici loop on an equally fresh simulator (the ceiling for any harness; the explore
// cases, whose requests are not recorded, left out of both), the wall time of the full default run, and the start-up
// of `rdx --help` against a bare `node -e 0`.
import { spawnSync } from 'node:child_process';
import { Agent, request } from 'undici';
import { BENCH_SECRET, RDX_CLI, median, simulatorProcess, type BenchSection, type Table } from './run.js';
import { defaults } from '../src/config/profile.js';
import { runConformance } from '../src/engine/run.js';
import { concurrencyTable, progressTable } from './concurrency.js';

const RUNS = 3;
/**
 * Pairs of a harness run and its replay, each pair judged by its own ratio: the machine's speed drifts by more
 * between runs (±15%) than the changes this row is read for, and a pair sees the same drift on both sides.
 */
const PAIRS = 5;
/** The explore cases (suites/explore/), by id. */
const EXPLORE_CASES = '^explore\\.';

/** The run this section measures (and bench/phases.ts profiles): the full suite but the explore cases, one case at a time. */
export function measuredRun(baseUrl: string, secret: string): ReturnType<typeof runConformance> {
  return runConformance({
    profile: { ...defaults(), baseUrl, clientId: 'bench', clientSecret: secret }, reporter: 'none',
    // One case at a time, like the replay: side by side, the cases' durations overlap and their sum is no time.
    concurrency: 1,
    // Not the explore cases: a passing search records none of its requests (so no replay could send them),
    // and its writes would leave the replay's simulator in another state than the harness's.
    filters: { grep: EXPLORE_CASES, invert: true },
  });
}

/**
 * The harness's own requests replayed in order over one keep-alive connection, with nothing judged or recorded:
 * the most any harness could do with the same traffic against an equally fresh simulator.
 */
async function replay(baseUrl: string, token: string, secret: string, requests: Replayed[]): Promise<{ rate: number; cpuMicros: number }> {
  const agent = new Agent({ connections: 1 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const r of requests) {
    const url = new URL(r.url);
    const target = `${baseUrl}${url.pathname}${url.search.replace(/access_token=\*\*\*/, `access_token=${token}`)}`;
    const headers = { ...r.headers };
    if (headers['authorization']?.includes('***')) headers['authorization'] = headers['authorization'].replace('***', token);
    const body = r.body?.replace('***', secret);
    const res = await request(target, { method: r.method as 'GET', headers, ...(body !== undefined ? { body } : {}), dispatcher: agent });
    await res.body.text();
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await agent.close();
  return { rate: requests.length / seconds, cpuMicros: used.user + used.system };
}

interface Replayed {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

async function tokenFor(baseUrl: string, secret: string): Promise<string> {
  const res = await request(`${baseUrl}/oauth2/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'bench', client_secret: secret, grant_type: 'client_credentials' }),
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}

function timed(args: string[]): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore', timeout: 120_000 });
  if (r.status !== 0 && args.includes('run')) throw new Error(`rdx ${args.slice(1).join(' ')} exited ${String(r.status)}`);
  return performance.now() - started;
}

export const harnessSection: BenchSection = {
  name: 'harness',
  async run(): Promise<Table[]> {
    const bare: number[] = [];
    const harness: number[] = [];
    // CPU time (user + system, µs) per exchange of this process: the simulator runs in its own.
    const bareCpu: number[] = [];
    const harnessCpu: number[] = [];
    let exchanges = 0;
    for (let i = 0; i < PAIRS; i++) {
      const a = await simulatorProcess(RDX_CLI, BENCH_SECRET);
      let sent: Replayed[];
      try {
        const cpu = process.cpuUsage();
        const { report } = await measuredRun(a.baseUrl, BENCH_SECRET);
        const used = process.cpuUsage(cpu);
        sent = report.cases.flatMap((c) => c.exchanges.map((e) => e.request));
        exchanges = sent.length;
        harnessCpu.push((used.user + used.system) / exchanges);
        // The rate while cases run: loading suites and starting up are fixed costs, shown by the wall-time row.
        harness.push(exchanges / (report.cases.reduce((ms, c) => ms + c.durationMs, 0) / 1000));
      } finally {
        a.stop();
      }
      const b = await simulatorProcess(RDX_CLI, BENCH_SECRET);
      try {
        const replayed = await replay(b.baseUrl, await tokenFor(b.baseUrl, BENCH_SECRET), BENCH_SECRET, sent);
        bare.push(replayed.rate);
        bareCpu.push(replayed.cpuMicros / sent.length);
      } finally {
        b.stop();
      }
    }
    const full = Array.from({ length: RUNS }, () => timed([RDX_CLI, 'run', '--reporter', 'dot', '--no-reports']));
    const help = Array.from({ length: 5 }, () => timed([RDX_CLI, '--help']));
    const bareNode = Array.from({ length: 5 }, () => timed(['-e', '0']));
    const ratios = harness.map((rate, i) => rate / (bare[i] as number));
    const cpuRatios = harnessCpu.map((us, i) => (bareCpu[i] as number) / us);
    return [{
      title: `Harness speed (median of ${RUNS} runs, the exchange rate of ${PAIRS} pairs; simulator in its own process)`,
      columns: ['measure', 'value', 'baseline', 'ratio'],
      rows: [
        ['exchanges/s: harness (full suite but the explore cases) vs the same requests replayed bare', Math.round(median(harness)), Math.round(median(bare)), median(ratios).toFixed(2)],
        ['CPU per exchange, µs: the harness process (the whole run, its suites loaded and planned) vs the replay', Math.round(median(harnessCpu)), Math.round(median(bareCpu)), median(cpuRatios).toFixed(2)],
        ['full default run `rdx run` (starts the simulator), ms', Math.round(median(full)), '-', '-'],
        ['`rdx --help` start-up vs `node -e 0`, ms', Math.round(median(help)), Math.round(median(bareNode)), (median(help) / median(bareNode)).toFixed(2)],
      ],
      notes: [
        `${exchanges} exchanges per full run at --concurrency 1; the replay sends them in order on one connection and judges nothing.`,
        `The ratio is the median of the pairs' ratios (a harness run, then its replay; the first pair in a cold process): ${ratios.map((r) => r.toFixed(2)).join(', ')}.`,
        `CPU: the replay's CPU per exchange over the harness's, per pair (the harness's includes loading and planning the suites, and V8's helper threads): ${cpuRatios.map((r) => r.toFixed(2)).join(', ')}.`,
        'The exchange rate leaves out the explore cases (suites/explore/, some 1,600 requests within their budget): a passing search records none of its requests, so no replay could send the same; counted, their time without their requests made the ratio 0.13 on 2026-11-27. The wall-time row runs them.',
        'Goals: harness >= 0.7x the bare loop (issue 39); the full default run well under 10 s.',
      ],
    }, await concurrencyTable(), await progressTable()];
  },
};
