// Where the harness's own time goes, by phase: the harness's main thread sampled by V8's profiler (node:inspector)
// during full runs at --concurrency 1 against the simulator in its own process (the explore cases left out, as in the
// harness section), each sample counted once in every phase one of its frames belongs to. A first run in a fresh
// process (what every `rdx run` is) and a third (the code compiled and warm) are shown side by side.
//
// Samples are of the main thread's wall time: one taken while a system call waits (a socket write that wakes the
// simulator on the same core) counts like one taken while JavaScript runs. And an async function that resumed after
// an await has lost its caller's frames, so phases that await (sending, a case's steps) show only what they do before
// their first await; the rest falls under "other".
import { Session } from 'node:inspector/promises';
import { BENCH_SECRET, RDX_CLI, simulatorProcess, type BenchSection, type Table } from './run.js';
import { measuredRun } from './harness.js';

const RUNS = 3;

/** A phase and the frames that belong to it: `functionName file`, the file relative to build/src or node_modules. */
export const PHASES: readonly (readonly [string, RegExp])[] = [
  ['template expansion (resolve, factories, faker)', /^(resolve|makeItem) engine\/template\.js| data\/(factories|boundary)\.js$/],
  ['request building', /^buildRequest engine\/request\.js/],
  ['sending (client, undici, decoding, JSON.parse)', /^sendOnce http\/client\.js/],
  ['socket writes (the send system calls)', /^(writev|writeLatin1String|writeUtf8String|writeBuffer) $/],
  ['judging: global checks', /^globalJudgements engine\/expectations\.js/],
  ['judging: expect blocks and named checks', /^(expectation|namedChecks) engine\/expectations\.js/],
  ['schema validation (precompiled validators)', /spec\/validators\/|^(schemaErrors|precompiledValidator) /],
  ['masking and recording (ReportBudget.store)', /^store engine\/report-budget\.js/],
  ['mocha (a test per case)', / mocha\//],
  ['garbage collector', /^\(garbage collector\) $/],
];

/** The parts of a V8 CPU profile this reads (Profiler.Profile of the DevTools protocol). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

export interface PhaseTimes {
  /** All the sampled time, idle included, in ms. */
  totalMs: number;
  idleMs: number;
  /** Per phase, in the order of `phases`; a sample may count in several (a check that validates a schema). */
  phases: { name: string; ms: number }[];
  /** Busy time in no phase. */
  otherMs: number;
}

const frameName = (callFrame: CpuProfile['nodes'][number]['callFrame']): string =>
  `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*\/build\/src\//, '').replace(/^.*\/node_modules\//, '')}`;

/** The sampled time of a profile by phase: each sample counts once in every phase a frame of its stack belongs to. */
export function phaseTimes(profile: CpuProfile, phases: readonly (readonly [string, RegExp])[] = PHASES): PhaseTimes {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const perNode = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    perNode.set(id, (perNode.get(id) ?? 0) + us);
    total += us;
  });
  const ms = phases.map(() => 0);
  let idle = 0;
  let other = 0;
  for (const [id, us] of perNode) {
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) stack.push(frameName(node.callFrame));
    }
    if (stack[0]?.startsWith('(idle) ')) {
      idle += us;
      continue;
    }
    let counted = false;
    phases.forEach(([, pattern], i) => {
      if (stack.some((frame) => pattern.test(frame))) {
        ms[i] = (ms[i] ?? 0) + us;
        counted = true;
      }
    });
    if (!counted) other += us;
  }
  return { totalMs: total / 1000, idleMs: idle / 1000, phases: phases.map(([name], i) => ({ name, ms: (ms[i] ?? 0) / 1000 })), otherMs: other / 1000 };
}

async function profiledRun(): Promise<{ times: PhaseTimes; exchanges: number }> {
  const target = await simulatorProcess(RDX_CLI, BENCH_SECRET);
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const { report } = await measuredRun(target.baseUrl, BENCH_SECRET);
    const { profile } = await session.post('Profiler.stop');
    return { times: phaseTimes(profile as CpuProfile), exchanges: report.cases.reduce((n, c) => n + c.exchanges.length, 0) };
  } finally {
    session.disconnect();
    target.stop();
  }
}

export const phasesSection: BenchSection = {
  name: 'phases',
  async run(): Promise<Table[]> {
    const runs: Awaited<ReturnType<typeof profiledRun>>[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await profiledRun());
    const shown = [runs[0], runs[RUNS - 1]] as const;
    const cell = ({ times, exchanges }: (typeof runs)[number], ms: number): string =>
      `${Math.round(ms)} ms, ${(100 * ms / (times.totalMs - times.idleMs)).toFixed(1)}%, ${(ms / exchanges).toFixed(3)} ms/ex`;
    const names = shown[0]?.times.phases.map((p) => p.name) ?? [];
    return [{
      title: `Where the harness's main thread spends a run, by phase (run 1 of a fresh process and run ${RUNS}; --concurrency 1)`,
      columns: ['phase', 'run 1 (cold)', `run ${RUNS} (warm)`],
      rows: [
        ['busy (not idle)', ...shown.map((r) => (r ? `${Math.round(r.times.totalMs - r.times.idleMs)} ms, ${((r.times.totalMs - r.times.idleMs) / r.exchanges).toFixed(2)} ms/ex` : '-'))],
        ['idle (waiting for the simulator)', ...shown.map((r) => (r ? `${Math.round(r.times.idleMs)} ms` : '-'))],
        ...names.map((name, i) => [name, ...shown.map((r) => (r ? cell(r, r.times.phases[i]?.ms ?? 0) : '-'))]),
        ['other (in no phase above)', ...shown.map((r) => (r ? cell(r, r.times.otherMs) : '-'))],
      ],
      notes: [
        `${shown[0]?.exchanges ?? 0} exchanges a run. Shares are of the busy time; a sample counts in every phase one of its frames belongs to.`,
        'Wall-time samples: a socket write that wakes the simulator on the same core counts while it waits. An async function that resumed after an await has lost its caller, so sending and a case\'s steps show only their parts before the first await.',
        ...runs.flatMap((r, i) => r.times.phases.filter((p) => p.ms === 0).map((p) => `run ${i + 1}: no sample in "${p.name}": has a function it names been renamed?`)),
      ],
    }];
  },
};
