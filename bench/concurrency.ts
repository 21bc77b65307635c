// rdx run --concurrency: a complete run's wall time against the simulator (in its own process, a fresh one per run)
// at 0, 20 and 50 ms of added latency, one case at a time and at the default concurrency, in one sitting; and
// whether the two judged every case the same; at 50 ms once more without the explore cases, whose search is bound in
// time whatever the concurrency. The baseline of each ratio is the --concurrency 1 run at the same
// latency, measured in the same sitting.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_SECRET, RDX_CLI, median, simulatorProcess, type Table } from './run.js';
import { DEFAULT_EXPLORE_BUDGET } from '../src/engine/explore/index.js';
import { DEFAULT_CONCURRENCY } from '../src/engine/pool.js';

const LATENCIES = [0, 20, 50];
/** The latency of a far target, run once more without the explore cases. */
const FAR = 50;
const WITHOUT_EXPLORE = ['-g', '^explore\\.', '-i'];
/** Runs per cell at 0 ms, where a run takes seconds and the noise is largest (the median is shown). */
const RUNS_AT_ZERO = 3;

interface Timed {
  ms: number;
  verdict: string;
  /** Case id → verdict, to compare two runs case by case. */
  cases: Map<string, string>;
}

/**
 * One complete `rdx run` (a process, as a user runs it), against a fresh simulator in its own process with that
 * latency, or against the embedded one (`npm start`); its wall time and verdicts.
 */
async function timedRun(latencyMs: number | 'embedded', concurrency: number, extra: string[] = []): Promise<Timed> {
  const sim = latencyMs === 'embedded' ? undefined : await simulatorProcess(RDX_CLI, BENCH_SECRET, latencyMs > 0 ? ['--latency', String(latencyMs)] : []);
  const dir = mkdtempSync(join(tmpdir(), 'rdx-bench-'));
  try {
    const started = performance.now();
    const target = sim ? ['--base-url', sim.baseUrl, '--client-id', 'bench'] : [];
    const r = spawnSync(process.execPath, [RDX_CLI, 'run', ...target, '--allow-irreversible', '--concurrency', String(concurrency), '--reporter', 'none', '--report-dir', dir, ...extra], {
      stdio: 'ignore', timeout: 300_000, env: { ...process.env, ...(sim ? { RDX_CLIENT_SECRET: BENCH_SECRET } : {}) },
    });
    const ms = performance.now() - started;
    if (r.status === null || r.status > 4) throw new Error(`rdx run --concurrency ${concurrency} (${String(latencyMs)}) ended with ${String(r.status ?? r.signal)}`);
    const report = JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as { summary: { verdict: string }; cases: { id: string; verdict: string }[] };
    return { ms, verdict: report.summary.verdict, cases: new Map(report.cases.map((c) => [c.id, c.verdict])) };
  } finally {
    sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The cases two runs judged differently, by id. */
function differing(a: Timed, b: Timed): string[] {
  const ids = new Set([...a.cases.keys(), ...b.cases.keys()]);
  return [...ids].filter((id) => a.cases.get(id) !== b.cases.get(id));
}

export async function concurrencyTable(): Promise<Table> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  const settings = [...(['embedded', ...LATENCIES] as const).map((latency) => ({ latency, extra: [] as string[] })),
    { latency: FAR, extra: WITHOUT_EXPLORE }];
  for (const { latency, extra } of settings) {
    const runs = latency === 0 || latency === 'embedded' ? RUNS_AT_ZERO : 1;
    const serial: Timed[] = [];
    const concurrent: Timed[] = [];
    // Interleaved, so that a slow spell of the machine weighs on both.
    for (let i = 0; i < runs; i++) {
      serial.push(await timedRun(latency, 1, extra));
      concurrent.push(await timedRun(latency, DEFAULT_CONCURRENCY, extra));
    }
    const diff = [...new Set(serial.flatMap((s) => concurrent.flatMap((c) => differing(s, c))))];
    const verdicts = [...new Set([...serial, ...concurrent].map((t) => t.verdict))];
    const one = median(serial.map((t) => t.ms));
    const many = median(concurrent.map((t) => t.ms));
    const label = latency === 'embedded' ? 'none (embedded simulator, npm start)' : `${latency} ms${extra.length > 0 ? ', explore cases left out' : ''}`;
    rows.push([label, Math.round(one), Math.round(many), (one / many).toFixed(2), diff.length === 0 && verdicts.length === 1 ? `yes (${verdicts[0] ?? ''})` : 'NO']);
    if (diff.length > 0) notes.push(`At ${label}, judged differently: ${diff.slice(0, 10).join(', ')}${diff.length > 10 ? ` (+${diff.length - 10})` : ''}.`);
    if (runs > 1) notes.push(`At ${label}, every run (ms): --concurrency 1 ${serial.map((t) => Math.round(t.ms)).join(', ')}; ${DEFAULT_CONCURRENCY}: ${concurrent.map((t) => Math.round(t.ms)).join(', ')}.`);
  }
  return {
    title: `rdx run at --concurrency 1 and the default (${DEFAULT_CONCURRENCY}) against rdx simulate --latency L (a fresh simulator per run)`,
    columns: ['added latency', '--concurrency 1, ms', `--concurrency ${DEFAULT_CONCURRENCY}, ms`, 'ratio', 'same verdicts, case by case'],
    rows,
    notes: [
      `Wall time of the whole \`rdx run\` process (start-up, every case, the sweep, the reports); embedded and at 0 ms the median of ${RUNS_AT_ZERO} interleaved pairs, else one pair.`,
      `The explore cases (suites/explore/) search until their budget's time bound (${DEFAULT_EXPLORE_BUDGET.seconds} s each by default) whatever the concurrency, and explore.credentials runs alone: at ${FAR} ms they take most of a full run, at either concurrency. The row without them (\`${WITHOUT_EXPLORE.join(' ')}\`) shows what side by side does for the cases that run steps.`,
      `Goals: at ${FAR} ms, explore cases left out, the default at least 4x faster than --concurrency 1; embedded and at 0 ms no slower (ratio >= 1, within noise).`,
      ...notes,
    ],
  };
}

/** The live progress line costs the run nothing: `rdx run --progress` (off a terminal, forced) against `--no-progress`. */
export async function progressTable(): Promise<Table> {
  const withLine: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < RUNS_AT_ZERO; i++) {
    without.push((await timedRun('embedded', DEFAULT_CONCURRENCY, ['--no-progress'])).ms);
    withLine.push((await timedRun('embedded', DEFAULT_CONCURRENCY, ['--progress'])).ms);
  }
  const a = median(withLine);
  const b = median(without);
  return {
    title: 'rdx run\'s progress line (embedded simulator, --concurrency 8)',
    columns: ['measure', 'value', 'baseline', 'ratio'],
    rows: [['wall time, ms: --progress vs --no-progress', Math.round(a), Math.round(b), (a / b).toFixed(2)]],
    notes: [
      `Median of ${RUNS_AT_ZERO} interleaved pairs; every run (ms): --progress ${withLine.map(Math.round).join(', ')}; --no-progress ${without.map(Math.round).join(', ')}.`,
      'Goal: ratio <= 1.05 (no cost beyond noise).',
    ],
  };
}
