// What the admin service and the dashboard's router send as JSON: the shapes the server builds (admin/service.ts,
// dashboard/index.ts, runs.ts, records.ts, events.ts, journal.ts) and the dashboard's page reads (dashboard/ui/, browser
// code). Types only, importing nothing but import-free modules of src/core: the page's type check (tsconfig.ui.json,
// no Node types) reads this file too, so one declaration serves both sides.
import type { RunVerdict } from '../../src/core/case-view.js';
import type { ToComplete } from '../../src/core/unlocks.js';

export type PersonaKind = 'fault' | 'variant';

/** A persona as the personas list shows it. */
export interface PersonaView {
  name: string;
  kind: PersonaKind;
  description: string;
  breaks: readonly string[];
  interprets: readonly string[];
  active: boolean;
}

/** Latency and chaos as a page shows them. */
export interface ChaosView {
  /** Each latency rule as it was written. */
  latency: string[];
  errorRate: number;
  dropRate: number;
  seed: number;
  active: boolean;
  /** The whole in words ("latency 200 ms; 5% answered 503; seed 1", or "off"). */
  text: string;
}

/** One request the simulator answered, as its journal keeps it (secrets masked). */
export interface JournalEntry {
  /** When the request arrived (ISO 8601). */
  at: string;
  method: string;
  /** Path and query, with any access_token in the query masked. */
  path: string;
  operationId: string | null;
  status: number;
  latencyMs: number;
  clientId: string | null;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  responseBody: string | null;
  /** What else happened on this request, such as tokens evicted to make room for the one it was issued. */
  note?: string;
}

/**
 * What the live journal shows of a request: an entry without its headers and bodies, which are one click
 * (GET /__admin/api/journal/<id>) away; 0 as status: the connection was closed without an answer.
 */
export type JournalSummary = { id: number } & Pick<JournalEntry, 'at' | 'method' | 'path' | 'operationId' | 'status' | 'latencyMs' | 'clientId' | 'note'>;

/** The live feed's journal event: new entries, or on connecting (snapshot) the latest ones. */
export interface JournalEvent {
  entries: JournalSummary[];
  /** Entries of a burst left out of this batch. */
  skipped: number;
  snapshot: boolean;
}

/** The live feed's run event: a run started or ended. */
export interface RunEvent {
  run: RunView;
}

/** Counts of what links to a job offer, by reference. */
export interface JobOfferLinks {
  attributes: number;
  applicationSteps: number;
  jobboardActivities: number;
  jobboardJobOffers: number;
}

/** job-offers: what links to each job offer shown. Others: whether the job offer each reference names exists. */
export type RecordLinks = Record<string, JobOfferLinks | { jobOffer: boolean }>;

/** A page of one resource's records: `items` go out as the envelope's data, the rest as its meta. */
export interface RecordPage {
  items: Record<string, unknown>[];
  /** Matching records (of those searched, when partial). */
  total: number;
  page: number;
  pages: number;
  /** The search stopped at its time limit: total counts only the records searched. */
  partial: boolean;
  links: RecordLinks;
}

/**
 * What the run card shows: the run's verdict and counts as its report.json states them (summary), read, never
 * derived here, so the card says what the report, the console and the badge say.
 */
export interface RunCard {
  verdict: RunVerdict;
  /** The verdict in words ("NOT CONFORMANT"). */
  word: string;
  /** The verdict and why, as the console's last lines give it. */
  line: string;
  /** Why, without the verdict word: the sentence the card shows under it (and report.html under its own). */
  why: string;
  total: number;
  byVerdict: Record<string, number>;
  mustFailures: number;
  errors: number;
  shouldWarnings: number;
  knownFailures: number;
  unjudgedMust: number;
  toComplete: ToComplete[];
  /** The clauses of failed MUST assertions, by the number of cases that failed them, most first (at most 6). */
  failedClauses: { clause: string; cases: number }[];
}

export interface RunView {
  /** 1, 2, … in this simulator's life. */
  n: number;
  state: 'running' | 'done' | 'failed';
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  /** Personas and chaos the run started under. */
  personas: string[];
  chaos: boolean;
  /** Clauses the active fault personas break on purpose: the ones a run should catch. */
  breaks: string[];
  /** A finished run's verdict and counts (runCard). */
  card?: RunCard;
  /** The report's run id, and where the dashboard serves its report.html. */
  reportId?: string;
  reportPath?: string;
  /** Why a run could not be judged (the target could not be reached, no token, …), secrets removed. */
  error?: string;
}

/** The simulator as the dashboard shows it (GET /__admin/api/state). */
export interface DashboardState {
  version: string;
  baseUrl: string;
  basePath: string;
  clientId: string;
  /** Shown only when it is the built-in demo secret: one given at start is the operator's to share. */
  clientSecret: string | null;
  seed: number;
  records: number;
  maxRecords: number;
  counts: Record<string, number>;
  pageSize: number;
  personas: { name: string; kind: PersonaKind }[];
  chaos: ChaosView;
  adminTokenRequired: boolean;
  journalSize: number;
  liveClients: number;
  /** The latest run, or null before the first. */
  run: RunView | null;
}
