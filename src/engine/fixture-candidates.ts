// Candidates for fixtures.atsJobOfferIds (rdx init --base-url): the ATS job offers a target already holds, read from
// its own list, so a vendor need not guess the {id} of job-offers.read-fixture. No answer shows an ATS job offer's
// {id} (RECORD.ATS_NO_ID): a reference is offered as the {id} only once GET /ats/job-offers/{id} has read that job
// offer back by it; otherwise the references are listed for the vendor to look up in their own store.
// Bounded like a run's requests (the profile's timeout, size cap, retries, origins), and by a few requests in all:
// one token, one page of the list, at most MAX_PROBES reads.
import type { Profile } from '../config/profile.js';
import { expiresInUnit } from '../config/profile.js';
import { UsageError } from '../errors.js';
import { TokenError, TokenProvider } from '../http/auth.js';
import type { Exchange } from '../core/results.js';
import { operation } from '../spec/index.js';
import { escapeTerminal } from '../core/terminal.js';
import { firstToken, httpClientFor, runSecrets } from './target.js';

/** How many job offers are listed at most. */
export const MAX_CANDIDATES = 10;
/** How many references are tried as {id} at most: a target that reads none of the first few reads none. */
export const MAX_PROBES = 3;
/** The whole search stops after this long, whatever the per-request timeout. */
export const SEARCH_DEADLINE_MS = 60_000;
/** A reference longer than this, or holding a character a terminal or YAML would act on, is never offered as a value. */
const MAX_REFERENCE_LENGTH = 256;

export interface JobOfferCandidate {
  /** The job offer's reference, as the target listed it (raw: escape it before printing). */
  reference: string;
  /** Its title, when the listing gave one (raw). */
  title?: string;
}

export interface FixtureSearch {
  /** The list URL read (one page, GET /ats/job-offers). */
  listUrl: string;
  /** Up to MAX_CANDIDATES job offers of that page, in its order. */
  candidates: JobOfferCandidate[];
  /** Whether the target holds more than those: the page had more items, or a next_link. */
  more: boolean;
  /** The references tried as {id} and the status each got (undefined: no answer). */
  tried: { reference: string; status: number | undefined }[];
  /** A reference GET /ats/job-offers/{id} read back with itself as {id}: a fixture read from the target. */
  chosen?: string;
  /** Why the list could not be read (the target answered, but not a list of job offers): its status or body problem. */
  problem?: string;
}

/**
 * Reads the first page of the target's ATS job offers and tries the first references as {id}. Throws a UsageError
 * without credentials, and, as `rdx run` does, an UnreachableError when the token endpoint does not answer, refuses
 * the credentials, or is not there (exit 3). Every message is scrubbed of the client secret.
 */
export async function findFixtureCandidates(profile: Profile): Promise<FixtureSearch> {
  const { baseUrl, clientId, clientSecret } = profile;
  if (!baseUrl) throw new UsageError('no base URL to read job offers from: give --base-url', 'RDX_ERR_NO_TARGET');
  if (!clientId || !clientSecret) {
    throw new UsageError('--base-url lists the target\'s job offers, which needs a token: give RDX_CLIENT_ID and RDX_CLIENT_SECRET (or --client-id and --client-secret)', 'RDX_ERR_NO_CREDENTIALS');
  }
  const tokenUrl = profile.tokenUrl ?? `${baseUrl.replace(/\/$/, '')}/oauth2/token`;
  const secrets = runSecrets(profile, clientId, clientSecret, baseUrl, tokenUrl);
  const halt = new AbortController();
  const deadline = setTimeout(() => halt.abort(new Error('deadline')), SEARCH_DEADLINE_MS);
  // Only to the base URL's and the token URL's origins, as a run: a next_link elsewhere is never followed anyway.
  const http = httpClientFor(profile, baseUrl, tokenUrl, halt.signal);
  try {
    const grantType = profile.declared['grantType'] === 'omit' ? null : String(profile.declared['grantType'] ?? 'client_credentials');
    const tokens = new TokenProvider(http, tokenUrl, { clientId, clientSecret, grantType }, secrets, expiresInUnit(profile));
    await firstToken(tokens, halt.signal, secrets);
    const send = async (label: string, url: string): Promise<Exchange | { failed: string }> => {
      try {
        return await tokens.send(label, { method: 'GET', url, headers: { accept: 'application/json' } });
      } catch (error) {
        // The token endpoint answered without a usable token (rdx run judges that): nothing can be listed.
        return { failed: secrets.scrub(error instanceof TokenError ? error.message : String(error)) };
      }
    };
    return await search(baseUrl, send, (text) => secrets.scrub(text));
  } finally {
    clearTimeout(deadline);
    await http.close();
  }
}

type Send = (label: string, url: string) => Promise<Exchange | { failed: string }>;

async function search(baseUrl: string, send: Send, scrub: (text: string) => string): Promise<FixtureSearch> {
  const base = baseUrl.replace(/\/$/, '');
  const listUrl = base + operation('listJobOffers').path;
  const listed = await send('list job offers', listUrl);
  const found: FixtureSearch = { listUrl, candidates: [], more: false, tried: [] };
  const items = pageItems(listed);
  if (typeof items === 'string') return { ...found, problem: scrub(items) };
  found.candidates = items.list.flatMap(candidate).slice(0, MAX_CANDIDATES);
  found.more = items.list.length > found.candidates.length || items.nextLink;
  for (const c of found.candidates.filter((x) => offerable(x.reference)).slice(0, MAX_PROBES)) {
    const url = base + operation('getJobOffer').path.replace('{id}', encodeURIComponent(c.reference));
    const read = await send('read a job offer by its reference', url);
    const status = 'failed' in read ? undefined : read.response?.status;
    found.tried.push({ reference: c.reference, status });
    if (!('failed' in read) && readsBack(read, c.reference)) return { ...found, chosen: c.reference };
  }
  return found;
}

/** The page's items and whether it names a next page; or why it is no list of job offers. */
function pageItems(listed: Exchange | { failed: string }): { list: unknown[]; nextLink: boolean } | string {
  if ('failed' in listed) return listed.failed;
  const { response, transportError } = listed;
  if (!response) return `no answer (${transportError?.kind ?? 'unknown'}: ${transportError?.message ?? ''})`;
  if (response.status < 200 || response.status > 299) return `it answered ${response.status}`;
  const body = response.json as { data?: unknown; meta?: { next_link?: unknown } } | undefined;
  if (response.bodyProblem || !body || !Array.isArray(body.data)) return `its answer (${response.status}) is not the list envelope {message, data: [...]}${response.bodyProblem ? `: ${response.bodyProblem}` : ''}`;
  const next = body.meta?.next_link;
  return { list: body.data, nextLink: typeof next === 'string' && next !== '' };
}

function candidate(item: unknown): JobOfferCandidate[] {
  if (!item || typeof item !== 'object') return [];
  const { reference, title } = item as { reference?: unknown; title?: unknown };
  if (typeof reference !== 'string' || reference === '') return [];
  return [{ reference, ...(typeof title === 'string' ? { title } : {}) }];
}

/** Whether a reference can be written into the config as it is: short, and nothing a terminal or YAML acts on. */
export function offerable(reference: string): boolean {
  return reference.length <= MAX_REFERENCE_LENGTH && escapeTerminal(reference) === reference && reference.trim() === reference;
}

/** Whether a GET by {id} answered 200 with the job offer of that reference (the list envelope's first record). */
function readsBack(exchange: Exchange, reference: string): boolean {
  const body = exchange.response?.json as { data?: { reference?: unknown }[] } | undefined;
  return exchange.response?.status === 200 && Array.isArray(body?.data) && body.data[0]?.reference === reference;
}
