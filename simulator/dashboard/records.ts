// The records behind the dashboard's Records tab: one resource at a time, searched and paged, with the links between
// them (a job offer's reference leads to its attributes, application steps, jobboard activities and jobboard job
// offers; those lead back to the job offer). Reads only, straight from the store; never through the API, so
// browsing adds nothing to the journal and is not subject to personas or chaos.
import type { Store } from '../store.js';
import type { JobOfferLinks, RecordPage } from '../admin/wire.js';

export const RESOURCES = ['job-offers', 'attributes', 'application-steps', 'jobboard-activities', 'jobboard-job-offers', 'users'] as const;
export type Resource = (typeof RESOURCES)[number];

export interface RecordQuery {
  /** Case-insensitive text found in any field value. */
  q?: string;
  /** A job offer reference: the records of (or linked to) that job offer. */
  ref?: string;
  /** From 1. */
  page: number;
  size: number;
}

export type { JobOfferLinks, RecordPage } from '../admin/wire.js';

export const MAX_PAGE_SIZE = 200;
/** A search walks at most this long: a text search of two million records would otherwise hold the event loop. */
export const SEARCH_BUDGET_MS = 250;
/** Clock reads during a search: one per this many records. */
const CHECK_EVERY = 1024;

type Row = Record<string, unknown>;

export function isResource(name: string): name is Resource {
  return (RESOURCES as readonly string[]).includes(name);
}

/** The job offer reference a record of the resource belongs to. */
function referenceOf(resource: Resource, row: Row): string | undefined {
  const value = resource === 'job-offers' || resource === 'jobboard-job-offers' ? row['reference'] : row['job_offer_reference'];
  return typeof value === 'string' ? value : undefined;
}

function rows(store: Store, resource: Resource): readonly Row[] {
  switch (resource) {
    case 'job-offers':
      return store.jobOffers.values() as unknown as Row[];
    case 'attributes':
      return store.jobOffers.values().flatMap((offer) =>
        (offer.attributes ?? []).map((a) => ({ job_offer_reference: offer.reference, name: a.name, value: a.value })));
    case 'application-steps':
      return store.applicationSteps.values() as unknown as Row[];
    case 'jobboard-activities':
      return store.jobboardActivities.values() as unknown as Row[];
    case 'jobboard-job-offers':
      return store.jobboardJobOffers.values() as unknown as Row[];
    case 'users':
      return store.users as unknown as Row[];
  }
}

/** Whether any field value (nested ones too, a few levels down) contains the lower-cased needle. */
function contains(value: unknown, needle: string, depth = 0): boolean {
  if (typeof value === 'string') return value.toLowerCase().includes(needle);
  if (typeof value === 'number') return String(value).includes(needle);
  if (depth > 3 || value === null || typeof value !== 'object') return false;
  return Object.values(value as Row).some((v) => contains(v, needle, depth + 1));
}

function jobOfferLinks(store: Store, refs: ReadonlySet<string>): Record<string, JobOfferLinks> {
  const links: Record<string, JobOfferLinks> = {};
  for (const ref of refs) {
    links[ref] = { attributes: store.jobOffers.get(ref)?.attributes?.length ?? 0, applicationSteps: 0, jobboardActivities: 0, jobboardJobOffers: 0 };
  }
  if (refs.size === 0) return links;
  for (const step of store.applicationSteps.values()) {
    const l = links[step.job_offer_reference];
    if (l) l.applicationSteps++;
  }
  // Activities are indexed by job offer reference: only the buckets of the references shown are read.
  const activities = store.jobboardActivities.page({ eq: { job_offer_reference: [...refs] }, after: 0, limit: Number.MAX_SAFE_INTEGER });
  for (const activity of activities.items) {
    const l = links[activity.job_offer_reference];
    if (l) l.jobboardActivities++;
  }
  for (const offer of store.jobboardJobOffers.values()) {
    const l = links[offer.reference];
    if (l) l.jobboardJobOffers++;
  }
  return links;
}

export function listRecords(store: Store, resource: Resource, query: RecordQuery, now: () => number = Date.now): RecordPage {
  const size = Math.min(Math.max(1, Math.floor(query.size)), MAX_PAGE_SIZE);
  const all = rows(store, resource);
  const needle = query.q?.trim().toLowerCase() ?? '';
  const ref = query.ref?.trim() ?? '';
  let matched: readonly Row[] = all;
  let partial = false;
  if (needle !== '' || ref !== '') {
    const found: Row[] = [];
    const deadline = now() + SEARCH_BUDGET_MS;
    for (let i = 0; i < all.length; i++) {
      if (i % CHECK_EVERY === CHECK_EVERY - 1 && now() > deadline) {
        partial = true;
        break;
      }
      const row = all[i] as Row;
      if (ref !== '' && referenceOf(resource, row) !== ref) continue;
      if (needle !== '' && !contains(row, needle)) continue;
      found.push(row);
    }
    matched = found;
  }
  const pages = Math.max(1, Math.ceil(matched.length / size));
  const page = Math.min(Math.max(1, Math.floor(query.page) || 1), pages);
  const items = matched.slice((page - 1) * size, page * size);
  const refs = new Set(items.map((row) => referenceOf(resource, row)).filter((r): r is string => r !== undefined));
  const links: RecordPage['links'] = resource === 'job-offers'
    ? jobOfferLinks(store, refs)
    : Object.fromEntries([...refs].map((r) => [r, { jobOffer: store.jobOffers.has(r) }]));
  return { items, total: matched.length, page, pages, partial, links };
}
