// "Run conformance" on the dashboard: the harness in this process, against this simulator as it is configured now
// (its base URL, its client, its personas and chaos), one run at a time. Reports are written as `rdx run` writes
// them, under the report directory (a temporary one by default), and served from /__admin/reports/<run-id>/.
// The harness is not imported here: the composition root hands the simulator a ConformanceRunner (src/compose.ts);
// a simulator started without one answers that runs are not available.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ResolvedOptions } from '../options.js';
import type { ConformanceOutcome, ConformanceRunner, IdSources } from '../../src/core/conformance.js';
import type { RunCard, RunView } from '../admin/wire.js';
import { VERDICT_WORDS, verdictLine, verdictWhy } from '../../src/core/verdict.js';

export type { RunCard, RunView } from '../admin/wire.js';

/** The run card of a finished run, from its report's summary and cases. */
export function runCard(outcome: Pick<ConformanceOutcome, 'summary' | 'cases'>): RunCard {
  const s = outcome.summary;
  const byClause = new Map<string, number>();
  for (const c of outcome.cases) {
    if (c.verdict !== 'fail' || c.baseline) continue;
    const clauses = new Set(c.assertions.filter((a) => !a.passed && a.level === 'MUST').map((a) => a.clause));
    for (const clause of clauses) byClause.set(clause, (byClause.get(clause) ?? 0) + 1);
  }
  return {
    verdict: s.verdict,
    word: VERDICT_WORDS[s.verdict],
    line: verdictLine(s),
    why: verdictWhy(s),
    total: s.total,
    byVerdict: s.byVerdict,
    mustFailures: s.mustFailures,
    errors: s.errors,
    shouldWarnings: s.shouldWarnings,
    knownFailures: s.knownFailures,
    unjudgedMust: s.unjudgedMust,
    toComplete: s.toComplete,
    failedClauses: [...byClause].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 6).map(([clause, cases]) => ({ clause, cases })),
  };
}

export interface RunHost {
  options(): ResolvedOptions;
  baseUrl(): string;
  seed(): number;
  expiredToken(): string;
  /** The {id} of a seeded ATS job offer (fixtures.atsJobOfferIds of the run). */
  atsJobOfferFixtureIds(): string[];
  /** Whether latency or chaos is on. */
  chaos(): boolean;
  /** Told whenever a run starts or ends. */
  changed(run: RunView): void;
}

/** Runs listed at most (the newest); their report files stay on disk. */
const KEPT = 20;
const REPORT_ID = /^[0-9A-Za-z-]{1,80}$/;

export class Runs {
  private readonly runs: RunView[] = [];
  private readonly reports = new Map<string, string>();
  private running: Promise<void> | undefined;
  private tempDir: string | undefined;
  private closed = false;

  constructor(private readonly host: RunHost, private readonly reportDir: string | undefined,
    private readonly runner: ConformanceRunner | undefined) {}

  /** Whether this simulator was given the harness to run (`rdx simulate` gives it; a bare startSimulator() does not). */
  get available(): boolean {
    return this.runner !== undefined;
  }

  list(): RunView[] {
    return [...this.runs].reverse();
  }

  latest(): RunView | undefined {
    return this.runs[this.runs.length - 1];
  }

  /** The report.html of a run this dashboard made, or undefined. */
  reportFile(reportId: string): string | undefined {
    if (!REPORT_ID.test(reportId)) return undefined;
    const dir = this.reports.get(reportId);
    const file = dir ? join(dir, 'report.html') : undefined;
    return file && existsSync(file) ? file : undefined;
  }

  /** Starts a run; 'busy' while one is running, 'unavailable' when this simulator was given no runner. */
  start(): RunView | 'busy' | 'unavailable' {
    if (!this.runner) return 'unavailable';
    if (this.running || this.closed) return 'busy';
    const options = this.host.options();
    const run: RunView = {
      n: (this.runs[this.runs.length - 1]?.n ?? 0) + 1,
      state: 'running',
      startedAt: new Date().toISOString(),
      personas: options.personas.map((p) => p.name),
      breaks: [...new Set(options.personas.filter((p) => p.kind === 'fault').flatMap((p) => p.breaks ?? []))],
      chaos: this.host.chaos(),
    };
    this.runs.push(run);
    if (this.runs.length > KEPT) this.runs.shift();
    this.running = this.execute(run, options, this.runner).finally(() => {
      this.running = undefined;
      if (!this.closed) this.host.changed(run);
    });
    this.host.changed(run);
    return run;
  }

  /** Settles when the current run (if any) has ended; for tests and for an orderly shutdown. */
  async idle(): Promise<void> {
    await this.running;
  }

  private root(): string {
    if (this.reportDir !== undefined) return resolve(this.reportDir);
    this.tempDir ??= mkdtempSync(join(tmpdir(), 'rdx-dashboard-'));
    return this.tempDir;
  }

  private async execute(run: RunView, options: ResolvedOptions, runner: ConformanceRunner): Promise<void> {
    const started = Date.now();
    const hide = (text: string): string => [options.clientSecret, options.adminToken]
      .filter((s): s is string => typeof s === 'string' && s.length > 0)
      .reduce((t, secret) => t.split(secret).join('***'), text);
    try {
      // What a vendor behaving like the active variants would declare, so their readings are compared, not guessed.
      const variants = options.personas.filter((p) => p.kind === 'variant');
      const declared = Object.assign({}, ...variants.map((p) => p.declared ?? {})) as Record<string, unknown>;
      const idSources = Object.assign({}, ...variants.map((p) => p.profile?.idSources ?? {})) as IdSources;
      const report = await runner({
        baseUrl: this.host.baseUrl(),
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        seed: this.host.seed(),
        declared,
        expiredToken: this.host.expiredToken(),
        // The dashboard's run is complete: the simulator names a seeded job offer, and says how the ids of the
        // records the run creates are learned where a variant hides them.
        atsJobOfferIds: this.host.atsJobOfferFixtureIds(),
        ...(Object.keys(idSources).length ? { idSources } : {}),
      });
      Object.assign(run, { state: 'done', card: runCard(report), reportId: report.runId });
      if (!this.closed && REPORT_ID.test(report.runId)) {
        this.reports.set(report.runId, report.writeReports(this.root()));
        run.reportPath = `reports/${report.runId}/report.html`;
      }
    } catch (error) {
      run.state = 'failed';
      run.error = hide(error instanceof Error ? error.message : String(error));
    } finally {
      run.finishedAt = new Date().toISOString();
      run.durationMs = Date.now() - started;
    }
  }

  /** No run starts after this; a temporary report directory is removed (a given one is left alone). */
  close(): void {
    this.closed = true;
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
  }
}
