// "Run conformance" as the simulator's dashboard sees it: a function handed in by the composition root
// (src/compose.ts), so the dashboard never imports the engine or the reporters.
import type { CaseResult } from './results.js';
import type { Summary } from './report.js';

/** How the harness learns the {id} of a record it created when no answer shows it (docs/verdicts.md). */
export type IdSource = { command: string } | { file: string } | { url: string };
/** One id source per resource a run creates (the profile's idSources). */
export interface IdSources {
  atsJobOffer?: IdSource;
  applicationStep?: IdSource;
  jobboardActivity?: IdSource;
  jobboardJobOffer?: IdSource;
}

/** The target to judge, as the simulator is configured now. */
export interface ConformanceRequest {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  seed: number;
  /** What a vendor behaving like the active variants would declare (rdx.config.yaml `declared:`). */
  declared: Record<string, unknown>;
  /** A token of the client that has already expired (fixtures.expiredToken). */
  expiredToken: string;
  /** The {id} of a job offer the simulator seeded (fixtures.atsJobOfferIds). */
  atsJobOfferIds: string[];
  /** How the ids of the records the run creates are learned, where an active variant hides them (idSources). */
  idSources?: IdSources;
}

export interface ConformanceOutcome {
  runId: string;
  /** The run's summary as the engine wrote it into report.json: the verdict and its facts. */
  summary: Summary;
  cases: CaseResult[];
  /** Writes the report files as `rdx run` does, under a directory of its own in root; returns that directory. */
  writeReports(root: string): string;
}

export type ConformanceRunner = (request: ConformanceRequest) => Promise<ConformanceOutcome>;
