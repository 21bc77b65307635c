// Sample outputs quoted by the docs, produced from real runs of `rdx run` against the bundled simulator (clean, and
// with the fault personas the docs name), so the counts and lines they quote are what a run prints today. Each sample
// sits between markers in its file; `node build/scripts/doc-samples.js --write` rewrites them and
// scripts/doc-samples.test.ts fails when one differs from a fresh run's output. Credentials go through the
// environment, as the README advises, never a flag. A long --timeout keeps a loaded machine from turning a slow answer
// into an error the docs would then quote.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunReport } from '../src/core/report.js';
import { diffReports } from '../src/reporters/diff.js';
import { packageRoot } from '../src/spec/index.js';
import { startSimulator } from '../simulator/index.js';
import { personaByName } from '../simulator/personas/index.js';
import { currentBlock } from './docs.js';

export const SAMPLES_REGENERATE = 'node build/scripts/doc-samples.js --write';
const begin = (name: string): string => `<!-- sample: ${name} by \`${SAMPLES_REGENERATE}\` from real runs against the bundled simulator; a test keeps it true -->`;
const END = '<!-- sample: end -->';

interface SampleRun {
  stdout: string;
  code: number | null;
  report: RunReport;
  file: string;
}

/** `rdx run` as a vendor types it, against the simulator with these personas, credentials in the environment. */
async function rdxRun(dir: string, name: string, personas: string[]): Promise<SampleRun> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, personas: personas.map((p) => {
    const persona = personaByName(p);
    if (!persona) throw new Error(`no persona ${p}`);
    return persona;
  }) });
  try {
    const out = join(dir, name);
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_'))), RDX_CLIENT_ID: 'rdx-client', RDX_CLIENT_SECRET: 'rdx-secret' };
    const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [cli, 'run', '--base-url', sim.baseUrl, '--report-dir', out, '--no-progress', '--timeout', '60000'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
      child.once('error', reject);
      child.once('close', (exit) => resolve({ code: exit, stdout: text }));
    });
    const file = join(out, 'latest', 'report.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
    // What differs between any two runs: the run tag every reference starts with.
    return { stdout: stdout.split(report.run.runTag).join('<run tag>'), code, file, report };
  } finally {
    await sim.close();
  }
}

/** The lines of a run's console from `from` (a prefix) up to the line before `to`, case lists (8 spaces) left out. */
function excerpt(stdout: string, from: string, until: (line: string) => boolean): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.startsWith(from));
  if (start < 0) throw new Error(`the run printed no line starting "${from}"`);
  const out: string[] = [];
  for (const line of lines.slice(start)) {
    if (out.length && until(line)) break;
    if (!line.startsWith('        ')) out.push(line);
  }
  return out;
}

const verdictLines = (stdout: string): string[] => excerpt(stdout, ['CONFORMANT:', 'INCOMPLETE:', 'NOT CONFORMANT:', 'KNOWN FAILURES:'].find((w) => stdout.includes(`\n${w}`)) ?? 'NOT CONFORMANT:',
  (l) => /^(Concurrency|Throttling|Residue|Reports|Stopped|Next):/.test(l));

/** Every sample: its file, markers and text, from three full runs (clean, all-or-nothing-batch, missing-message). */
export async function sampleBlocks(): Promise<{ file: string; begin: string; end: string; text: string }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rdx-doc-samples-'));
  try {
    const clean = await rdxRun(dir, 'clean', []);
    const batch = await rdxRun(dir, 'all-or-nothing-batch', ['all-or-nothing-batch']);
    const missing = await rdxRun(dir, 'missing-message', ['missing-message']);
    const fault = diffReports(clean.file, clean.report, missing.file, missing.report);
    const back = diffReports(missing.file, missing.report, clean.file, clean.report);
    const block = (name: string, lines: string[]): string => [begin(name), ...lines, END].join('\n');
    const personas = [...excerpt(batch.stdout, 'Failures by clause', (l) => l === ''), '', ...verdictLines(batch.stdout)];
    const diffLine = `full runs: the diff lists ${fault.newlyFailing.length} cases newly failing (each with
\`ENVELOPE.MESSAGE\` and its finding), ${fault.newlyUnjudged.length} MUST/SHOULD cases newly unjudged because their prerequisites failed,
\`ENVELOPE.MESSAGE\` "held → broken (MUST)", and exits ${fault.regressions ? 1 : 0} with \`--fail-on-regression\` (${fault.regressions} regressions); the other way
round it lists ${back.newlyPassing.length} newly passing and exits ${back.regressions ? 1 : 0}.`;
    return [
      { file: 'docs/personas.md', begin: begin('personas-run'), end: END, text: block('personas-run', ['```text', `exit code ${String(batch.code)}`, ...personas, '```']) },
      { file: 'docs/verdicts.md', begin: begin('verdicts-incomplete'), end: END, text: block('verdicts-incomplete', ['```', ...verdictLines(clean.stdout), '```']) },
      { file: 'docs/reports.md', begin: begin('reports-diff'), end: END, text: block('reports-diff', [diffLine]) },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function write(): Promise<void> {
  for (const sample of await sampleBlocks()) {
    const path = join(packageRoot, sample.file);
    const text = readFileSync(path, 'utf8');
    const old = currentBlock(text, sample.begin, sample.end);
    if (old === undefined) throw new Error(`${sample.file} has no sample block (${sample.begin})`);
    writeFileSync(path, text.replace(old, () => sample.text));
    process.stdout.write(`${sample.file}: sample written\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--write')) {
  write().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 70;
  });
}
