// The pagination walk: a list step follows meta.next_link from its first page to the end, within bounds.
import { endMarker } from '../checks/lists.js';
import { outcomeOf } from '../checks/registry.js';
import { readPath } from '../core/paths.js';
import type { Exchange } from '../core/results.js';
import type { StepDef } from './suite.js';
import { Stop, type CaseRun } from './case-run.js';
import { send, tokenGet } from './request.js';
import { answerWeight } from '../core/json-scan.js';

const DEFAULT_MAX_PAGES = 1000;
/**
 * A walk stops, as an error, once its pages pass WALK_BYTES as parsed (a target that answers huge or object-heavy
 * pages: each is already capped by maxResponseBytes), or once the walks under way side by side hold RUN_WALK_BYTES
 * together: the run's memory stays bounded at any --concurrency.
 */
const WALK_BYTES = 64 * 1024 * 1024;
const RUN_WALK_BYTES = 96 * 1024 * 1024;

/** Follows meta.next_link from the first page to its end, bounded in pages and bytes and guarded against loops. */
export async function walk(run: CaseRun, step: StepDef, first: Exchange): Promise<Exchange[]> {
  const pages: Exchange[] = [];
  const seen = new Set<string>([first.request.url]);
  const max = step.paginate?.maxPages ?? DEFAULT_MAX_PAGES;
  const shared = run.services.walking;
  let current = first;
  let bytes = pageWeight(first);
  shared.bytes += bytes;
  try {
    while (pages.length + 1 < max) {
      const next = nextPage(run, current, seen);
      if (next === undefined) break;
      seen.add(next);
      current = await send(run, step, await tokenGet(run, next), `${step.name} page ${pages.length + 2}`);
      pages.push(current);
      const weight = pageWeight(current);
      bytes += weight;
      shared.bytes += weight;
      if (bytes > WALK_BYTES || shared.bytes > RUN_WALK_BYTES) {
        const limit = bytes > WALK_BYTES ? `more than ${WALK_BYTES / 2 ** 20} MiB once parsed` : `${Math.round(bytes / 2 ** 20)} MiB once parsed, and the walks side by side more than ${RUN_WALK_BYTES / 2 ** 20} MiB together,`;
        throw new Stop('error', `step "${step.name}": ${pages.length + 1} pages hold ${limit} and meta.next_link still points on; the walk was stopped there`);
      }
      if (current.transportError || outcomeOf(current) === 'failure') break;
    }
  } finally {
    // Once the walk ends, the report's budget (report-budget.ts) decides what of its pages stays in memory.
    shared.bytes -= bytes;
  }
  return pages;
}

/** The URL of the page after this one, or undefined where the walk ends. */
function nextPage(run: CaseRun, current: Exchange, seen: Set<string>): string | undefined {
  if (endMarker(current) !== undefined) return undefined;
  const link = readPath(current.response?.json, 'meta.next_link');
  if (typeof link !== 'string') return undefined;
  let next: string;
  try {
    next = new URL(link, current.request.url).toString();
  } catch {
    return undefined;
  }
  if (seen.has(next)) return undefined; // a loop: walk-exactly-once reports it, since the last page still points on
  // Another origin: never requested (the HTTP client would refuse it anyway); next-link-same-origin reports it.
  if (!run.services.http.allows(next) || new URL(next).origin !== new URL(current.request.url).origin) return undefined;
  return next;
}

/** What a page takes in memory: its text, and its parsed body when it has one. */
function pageWeight(ex: Exchange): number {
  const res = ex.response;
  if (!res) return 0;
  return answerWeight(res);
}
