// Which personas the self-check runs at two concurrencies. A persona's answer to a request is a function of the
// request, the records the request names or filters to (the case's own: suites/README.md, "Running side by side")
// and the simulator's clean answer, unless the persona reaches further: state kept from one request to the next, the
// records of every case (a list with its filter dropped, the latest record whoever made it), a limit or a clock
// shared by all cases. Only then can what runs beside a case change what it is answered, so only then is a second run
// at --concurrency 1 able to find a difference; src/selfcheck/schedule.test.ts reads every persona's source and fails
// when one reaches further without being named here (or marked acrossCases, or given a rate limit or token lifetime).
import type { Persona } from '../../simulator/personas/index.js';

/**
 * Personas whose answers may depend on what runs beside a case, though their cases are still compared case by case
 * at both concurrencies: why each may. (acrossCases personas, rate limits and token lifetimes need no entry.)
 */
export const SHARED_STATE: Readonly<Record<string, string>> = {
  'duplicate-across-pages': 'remembers, per simulator, the last record of every page it served',
  'job-offer-list-stale': 'answers the job offer list from a cache kept per simulator',
  'invalid-items-stored': 'numbers its stand-in values with one counter for every request, and dates them by the clock',
  'users-put-appends': 'PUT /users adds to the users every case sent before',
  'reference-filter-ignored': 'drops the reference filters: a list answers the records of every case',
  'reference-prefix-match': 'matches references by prefix over every record: a list may answer other cases\' records',
  'status-filter-ignored': 'drops the status filter over the records every case made',
  'status-filter-loose': 'lists every record of any status, other cases\' included, before filtering loosely',
  'date-filters-ignored': 'drops the date filters over the records every case made',
  'filters-dropped-on-next-page': 'drops the filters on the next page: it lists the records of every case',
  'date-ties-unstable': 'pages by number over every record the filters match, in an order that depends on them all',
  'case-insensitive-references': 'compares the filter with every stored reference',
  'comma-reference-lists': 'rewrites the filter of a list request',
  'json-array-reference-lists': 'rewrites the filter of a list request',
  'repeat-only-reference-lists': 'rewrites the filter of a list request',
  'numeric-job-offer-ids': 'numbers job offers by their place among every stored one, so ids follow creation order',
  'numeric-ids-with-id-log': 'numbers job offers by their place among every stored one, so ids follow creation order',
  'message-only-with-id-logs': 'numbers job offers by their place among every stored one, so ids follow creation order',
  'newest-first': 'pages by number over every record the filters match',
  'candidate-details-shared': 'a write of a step rewrites every stored step of the same candidate_ats_id',
  'step-cache-stale-after-move': 'answers GET of a step from a cache kept per simulator for a second by the clock',
  'jobboard-delete-removes-batch': 'remembers, per simulator, which jobboard job offers each batch created',
};

/** Why the persona's answers may depend on what runs beside a case (run it at both concurrencies), or undefined. */
export function scheduleDependence(persona: Persona | undefined): string | undefined {
  // The clean simulator is cheap to run twice, and the baseline every other comparison stands on.
  if (!persona) return 'the clean simulator, the baseline of the other comparisons';
  if (persona.acrossCases !== undefined) return persona.acrossCases;
  if (persona.options?.rateLimit !== undefined) return 'one rate limit for the requests of every case';
  if (persona.options?.tokenTtl !== undefined) return 'tokens expire by the clock, whichever case holds them';
  return SHARED_STATE[persona.name];
}
