// Exploration judged at many seeds: the explore cases alone, against the clean simulator, every legal variant and
// every fault, at seeds 1..N. A variant must get no MUST finding at any seed; a fault made for exploration
// (Persona.forExploration) must be caught at every seed; for every fault the table says at how many it was.
//   node dist/src/selfcheck/explore-seeds.js [--seeds 20] [--only NAME,NAME] [--budget REQUESTS/SECONDS]
import { pathToFileURL } from 'node:url';
import { runAsProgram } from '../cli/exit.js';
import { embeddedSimulator } from '../compose.js';
import { defaults, type Profile } from '../config/profile.js';
import { runConformance } from '../engine/run.js';
import { DEFAULT_EXPLORE_BUDGET } from '../engine/explore/index.js';
import { allPersonas, type Persona } from '../../simulator/personas/index.js';

export interface SeedRun {
  seed: number;
  /** MUST and SHOULD findings of the explore cases, as "case clause". */
  findings: string[];
  /** The shrunk length (steps) of each finding. */
  steps: number[];
  requests: number;
  ms: number;
  /** Explore cases that were not judged, with why. */
  unjudged: string[];
}

/** The explore cases of one run against the persona (none: the clean simulator) at one seed. */
export async function exploreAt(
  persona: Persona | undefined, seed: number, budget: { requests: number; seconds: number } = DEFAULT_EXPLORE_BUDGET,
): Promise<SeedRun> {
  const started = performance.now();
  const declare = persona?.kind === 'variant';
  const profile: Profile = {
    ...defaults(), seed, explore: { requests: budget.requests, seconds: budget.seconds },
    declared: declare ? { ...(persona?.declared ?? {}) } : {},
    ...(declare && persona?.profile?.idSources ? { idSources: persona.profile.idSources } : {}),
  };
  const { report } = await runConformance({
    profile, reporter: 'none', filters: { tags: ['explore'] }, simulator: embeddedSimulator(persona ? { personas: [persona] } : {}),
  });
  const explore = report.cases.filter((c) => c.explore !== undefined || c.id.startsWith('explore.'));
  return {
    seed,
    findings: explore.flatMap((c) => [...new Set(c.assertions.filter((a) => !a.passed).map((a) => `${c.id} ${a.level} ${a.clause}`))]),
    steps: explore.flatMap((c) => (c.explore?.steps !== undefined ? [c.explore.steps] : [])),
    requests: explore.reduce((n, c) => n + (c.explore?.requests ?? 0), 0),
    ms: Math.round(performance.now() - started),
    unjudged: explore.filter((c) => c.verdict === 'skip' || c.verdict === 'error').map((c) => `${c.id}: ${c.reason ?? c.verdict}`),
  };
}

/** What is wrong with a persona's runs, one line each. */
export function seedProblems(persona: Persona | undefined, runs: SeedRun[]): string[] {
  const name = persona?.name ?? 'clean';
  if (persona?.kind === 'fault') {
    const missed = runs.filter((r) => !r.findings.some((f) => (persona.breaks ?? []).some((id) => f.endsWith(` ${id}`))));
    return persona.forExploration && missed.length ? [`${name}: not caught by exploration at seed(s) ${missed.map((r) => r.seed).join(', ')}`] : [];
  }
  return runs.flatMap((r) => r.findings.filter((f) => f.includes(' MUST ')).map((f) => `${name}: false accusation at seed ${r.seed}: ${f}`));
}

const median = (xs: number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** One table row: seeds with a finding, the median shrunk length, requests and time per run. */
export function seedRow(persona: Persona | undefined, runs: SeedRun[]): string {
  const found = runs.filter((r) => r.findings.length > 0).length;
  const steps = median(runs.flatMap((r) => r.steps));
  const per = (f: (r: SeedRun) => number): number => Math.round(runs.reduce((n, r) => n + f(r), 0) / Math.max(1, runs.length));
  const unjudged = runs.reduce((n, r) => n + r.unjudged.length, 0);
  return `| ${persona?.name ?? 'clean'} | ${persona?.kind ?? 'clean'}${persona?.forExploration ? ' (for exploration)' : ''} | ${found}/${runs.length} | ${steps ?? '—'} | ${per((r) => r.requests)} | ${(per((r) => r.ms) / 1000).toFixed(1)} | ${unjudged} |`;
}

async function main(argv: string[]): Promise<number> {
  const arg = (flag: string): string | undefined => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const seeds = Number(arg('--seeds') ?? 20);
  const only = arg('--only')?.split(',').filter(Boolean);
  const [requests, seconds] = (arg('--budget') ?? '').split('/').map(Number);
  const budget = requests ? { requests, seconds: seconds || DEFAULT_EXPLORE_BUDGET.seconds } : { ...DEFAULT_EXPLORE_BUDGET };
  const personas: (Persona | undefined)[] = [undefined, ...allPersonas()].filter((p) => !only || only.includes(p?.name ?? 'clean'));
  const lines = ['| Persona | Kind | Seeds with a finding | Median shrunk steps | Requests per run | Seconds per run | Unjudged |', '|---|---|---:|---:|---:|---:|---:|'];
  const problems: string[] = [];
  for (const persona of personas) {
    const runs: SeedRun[] = [];
    for (let seed = 1; seed <= seeds; seed++) runs.push(await exploreAt(persona, seed, budget));
    lines.push(seedRow(persona, runs));
    problems.push(...seedProblems(persona, runs));
    process.stderr.write(`${lines.at(-1)}\n`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const p of problems) process.stdout.write(`PROBLEM ${p}\n`);
  return problems.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runAsProgram(() => main(process.argv.slice(2)));
