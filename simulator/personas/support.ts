// What several personas need and the hooks do not hand them: the records of a response, the stored record that a
// request's {id} names, and list links. Personas only: the simulator's own code never imports this.
import type { OperationKind } from '../../src/spec/index.js';
import type {
  ApplicationStepRecord, JobOfferRecord, JobboardActivityRecord, JobboardJobOfferRecord,
} from '../store.js';
import type { JsonObject, Persona, RequestContext, SimResponse } from './types.js';

export function kindIs(ctx: RequestContext, ...kinds: OperationKind[]): boolean {
  return ctx.operation !== undefined && kinds.includes(ctx.operation.kind);
}

/** The requests that store what the client sends: batch items, PUT and PATCH bodies, attributes, users. */
export function isWrite(ctx: RequestContext): boolean {
  return kindIs(ctx, 'batchCreate', 'replace', 'patch', 'attributeUpdate', 'usersReplace');
}

/**
 * The first value of a write's body that `fault` finds wrong, as "<path> <fault>" (a path such as
 * `[0].attributes[1].value`, "the body" for the body itself); undefined for a request that writes nothing or a body
 * with nothing wrong. `fault` gets each value, its member name ('' for an array item or the body) and its path.
 */
export function faultInWrite(ctx: RequestContext, fault: (value: unknown, key: string, path: string) => string | undefined): string | undefined {
  if (!isWrite(ctx)) return undefined;
  const walk = (value: unknown, key: string, path: string): string | undefined => {
    const found = fault(value, key, path);
    if (found) return `${path || 'the body'} ${found}`;
    if (value && typeof value === 'object') {
      for (const [k, item] of Object.entries(value)) {
        const inner = Array.isArray(value) ? walk(item, '', `${path}[${k}]`) : walk(item, k, path ? `${path}.${k}` : k);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  return walk(ctx.body, '', '');
}

export function isSuccess(res: SimResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The records of a response's data, in place (PUT /users nests them one array deeper); [] when there is no data. */
export function dataRecords(res: SimResponse): JsonObject[] {
  const data = res.body['data'];
  if (!Array.isArray(data)) return [];
  return data.flatMap((item: unknown) => (Array.isArray(item) ? item : [item])).filter(isObject);
}

/** The meta.next_link of a list answer: a string, null, or undefined when the answer has none. */
export function nextLinkOf(res: SimResponse): string | null | undefined {
  const meta = res.body['meta'];
  if (!isObject(meta) || !('next_link' in meta)) return undefined;
  const link = meta['next_link'];
  return typeof link === 'string' || link === null ? link : undefined;
}

export function setNextLink(res: SimResponse, link: string | null): void {
  const meta = isObject(res.body['meta']) ? res.body['meta'] : {};
  meta['next_link'] = link;
  res.body['meta'] = meta;
}

/** The simulator's links are absolute (or, under a variant, relative): both resolve against the base URL. */
export function parseLink(ctx: RequestContext, link: string): URL {
  return new URL(link, ctx.baseUrl);
}

/** Written back in the form it came in, so a persona composes with relative-next-link. */
export function formatLink(original: string, url: URL): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(original) ? url.href : `${url.pathname}${url.search}`;
}

/** The list request's URL with another query, in the simulator's own absolute form. */
export function requestUrl(ctx: RequestContext, query: URLSearchParams): string {
  const origin = new URL(ctx.baseUrl).origin;
  const search = query.toString();
  return `${origin}${ctx.rawPath}${search === '' ? '' : `?${search}`}`;
}

/** The stored record the request's {id} names, copied; undefined when there is none or the resource has no {id}. */
export function storedRecord(ctx: RequestContext): JsonObject | undefined {
  const id = ctx.params['id'];
  if (id === undefined) return undefined;
  const numeric = Number(id);
  let found: object | undefined;
  switch (ctx.operation?.resource) {
    case 'job-offer':
      found = ctx.store.jobOffers.get(id);
      break;
    case 'application-step':
      found = ctx.store.applicationSteps.get(numeric);
      break;
    case 'jobboard-activity':
      found = ctx.store.jobboardActivities.get(numeric);
      break;
    case 'jobboard-job-offer':
      found = ctx.store.jobboardJobOffers.get(numeric);
      break;
    default:
      found = undefined;
  }
  return found ? { ...found } : undefined;
}

/** Installs fields for the record the request's {id} names (numeric ids kept); false when there is none. */
export function storeRecord(ctx: RequestContext, fields: JsonObject): boolean {
  const id = ctx.params['id'];
  if (id === undefined) return false;
  const numeric = Number(id);
  switch (ctx.operation?.resource) {
    case 'job-offer': {
      // A PATCH may have moved the job offer to a new reference: it is then stored under that one.
      const key = ctx.store.jobOffers.has(id) ? id : String(fields['reference']);
      return ctx.store.jobOffers.replace(key, fields as unknown as JobOfferRecord) === 'ok';
    }
    case 'application-step':
      return ctx.store.applicationSteps.replace(numeric, { ...fields, id: numeric } as unknown as ApplicationStepRecord) === 'ok';
    case 'jobboard-activity':
      return ctx.store.jobboardActivities.replace(numeric, { ...fields, id: numeric } as unknown as JobboardActivityRecord) === 'ok';
    case 'jobboard-job-offer':
      return ctx.store.jobboardJobOffers.replace(numeric, { ...fields, id: numeric } as unknown as JobboardJobOfferRecord) === 'ok';
    default:
      return false;
  }
}

/** Rewrites the query of a list answer's meta.next_link in place (a persona that reads its query in another form). */
export function rewriteNextLinkQuery(ctx: RequestContext, res: SimResponse, rewrite: (query: URLSearchParams) => void): void {
  const link = nextLinkOf(res);
  if (typeof link !== 'string' || link === '') return;
  const url = parseLink(ctx, link);
  rewrite(url.searchParams);
  setNextLink(res, formatLink(link, url));
}

/** A legal variant that answers a partially successful batch with another status than 207 (the body is unchanged). */
export function partialSuccessWith(status: number, statusText: string): Persona {
  return {
    name: `partial-success-${status}`,
    kind: 'variant',
    description: `A partly valid batch stores its valid items and answers {message, data, errors} with status ${status} ${statusText} instead of 207.`,
    interprets: ['STATUS_CODES', 'STATUS_CODE_BODY_MAPPING'],
    declared: { statusCodes: { partialSuccess: status } },
    hooks: {
      afterHandler(_ctx, res) {
        if (res.outcome === 'partialSuccess') res.status = status;
      },
    },
  };
}

/** Fields that find a record (identities, references, dates): a persona that alters stored text leaves them alone. */
const KEYS = new Set(['reference', 'job_offer_reference', 'application_ats_id', 'candidate_ats_id', 'mail', 'name',
  'publication_at', 'recorded_at', 'candidate_creation_date']);

/**
 * Changes every text value a write stores (batch items, PUT and PATCH bodies, attributes and attribute values) before
 * the handler sees it, the keys that find a record aside: a storage layer that mangles text.
 */
export function alterStoredText(ctx: RequestContext, alter: (text: string) => string): void {
  if (!isWrite(ctx)) return;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return alter(value);
    if (Array.isArray(value)) return value.map(walk);
    if (isObject(value)) {
      for (const [key, field] of Object.entries(value)) value[key] = KEYS.has(key) ? field : walk(field);
      return value;
    }
    return value;
  };
  ctx.body = walk(ctx.body) as typeof ctx.body;
}

/** The fields of a token request's JSON body, to change before the endpoint reads them; undefined for any other request. */
export function tokenRequestFields(ctx: RequestContext): Record<string, unknown> | undefined {
  const body = ctx.body;
  if (ctx.operation?.kind !== 'token' || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  return body as Record<string, unknown>;
}
