// What the handlers share: batch creation by outcome, list filters and pagination, path parameters.
import type { JsonObject, RequestContext, SimResponse } from '../context.js';
import { parseIsoDate, DAY_MS } from '../dates.js';
import { SimError, counted, dataReply, errorBody, errorReply, listReply, reply } from '../envelope.js';
import { rules } from '../rules.js';
import { SequenceExhausted, type PageQuery, type Table } from '../table.js';
import { checkBody } from '../validate.js';

export type Handler = (ctx: RequestContext) => SimResponse;

export interface Noun {
  one: string;
  many: string;
}

export function noun(one: string, many = `${one}s`): Noun {
  return { one, many };
}

export function param(ctx: RequestContext, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`rdx simulator: route has no {${name}}`);
  return value;
}

/** The numeric {id} of a record; an id that is not a positive integer names no record. */
export function numericId(ctx: RequestContext, what: Noun): number {
  const text = param(ctx, 'id');
  const id = /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(id)) throw new SimError('notFound', `No ${what.one} with id ${JSON.stringify(text)}.`);
  return id;
}

export function notFound(what: Noun, id: string | number): SimError {
  return new SimError('notFound', `No ${what.one} with id ${JSON.stringify(String(id))}.`);
}

/**
 * POST of an array: each item is validated and created on its own (create returns the created record, or a
 * problem that refuses the item). The answer depends on the outcome: all created, some created, none created,
 * or an empty array.
 */
export function batchCreate(ctx: RequestContext, what: Noun, create: (item: JsonObject, index: number) => unknown): SimResponse {
  const items = ctx.body as unknown[];
  const schema = ctx.operation?.requestSchema;
  if (!schema) throw new Error('rdx simulator: batch operation without a request schema');
  if (items.length === 0) return dataReply(`No ${what.many} to create.`, []);
  const data: unknown[] = [];
  const problems: string[] = [];
  items.forEach((raw, index) => {
    const checked = checkBody(schema, raw);
    if (!checked.ok) {
      problems.push(`item ${index}: ${checked.problems.join('; ')}`);
      return;
    }
    let created: unknown;
    try {
      created = create(checked.value, index);
    } catch (error) {
      if (!(error instanceof SequenceExhausted)) throw error;
      created = `no ${what.one} can be created: ${error.message}`;
    }
    if (typeof created === 'string') problems.push(`item ${index}: ${created}`);
    // An item neither stored nor refused must never be counted as created: the request fails as a whole instead.
    else if (created === undefined || created === null) throw new Error(`rdx simulator: item ${index} of a batch was neither created nor refused`);
    else data.push(created);
  });
  if (problems.length === 0) return dataReply(`${counted(data.length, what.one, what.many)} created.`, data, 'created');
  if (data.length === 0) return errorReply('validation', `No ${what.one} created: ${counted(problems.length, 'item was', 'items were')} refused.`, problems);
  const message = `${counted(data.length, what.one, what.many)} created, ${counted(problems.length, 'item')} refused.`;
  return reply('partialSuccess', { message, data, errors: errorBody(message, problems)['errors'] });
}

// --- list queries -------------------------------------------------------------------------------------------

const CURSOR = 'cursor';

/** The values of a list filter, in every encoding the simulator accepts (interpretation REFERENCE_LIST_ENCODING). */
export function listValues(query: URLSearchParams, name: string): string[] {
  return [...new Set(rules().listParamNames(name).flatMap((key) => query.getAll(key)))];
}

export function singleValue(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new SimError('validation', `The query parameter ${name} may be given once.`);
  return values[0];
}

/** A date filter in ms; a calendar date as a maximum covers its whole day, so both bounds are inclusive. */
export function dateBound(query: URLSearchParams, name: string, bound: 'min' | 'max'): number | undefined {
  const text = singleValue(query, name);
  if (text === undefined) return undefined;
  const parsed = parseIsoDate(text);
  if (!parsed) {
    throw new SimError('validation', `The query parameter ${name} must be an ISO 8601 date (YYYY-MM-DD) or date-time, not ${JSON.stringify(text)}.`);
  }
  return bound === 'max' && parsed.dateOnly ? parsed.ms + DAY_MS - 1 : parsed.ms;
}

function cursorAfter(query: URLSearchParams): number {
  const text = singleValue(query, CURSOR);
  if (text === undefined) return 0;
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const match = /^after:(\d{1,15})$/.exec(decoded);
  if (!match) throw new SimError('validation', `The query parameter ${CURSOR} is not one this service issued; follow meta.next_link.`);
  return Number(match[1]);
}

function cursorOf(seq: number): string {
  return Buffer.from(`after:${seq}`, 'utf8').toString('base64url');
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** One header's first value (a proxy appends its own after those it received). */
function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

/** host and proto of the first element of an RFC 7239 Forwarded header (the proxy the client reached). */
function forwarded(value: string | string[] | undefined): { host?: string; proto?: string } {
  const element = firstValue(value);
  const found: { host?: string; proto?: string } = {};
  for (const pair of element?.split(';') ?? []) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim().toLowerCase();
    const raw = pair.slice(at + 1).trim();
    const text = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
    if (at > 0 && (name === 'host' || name === 'proto')) found[name] = text;
  }
  return found;
}

/**
 * The origin a client used, as a trusted proxy reports it (Forwarded first, then X-Forwarded-Host and
 * X-Forwarded-Proto); undefined when it reports no host, or one that is not a host name.
 */
function proxiedOrigin(ctx: RequestContext): string | undefined {
  const standard = forwarded(ctx.headers['forwarded']);
  const host = standard.host ?? firstValue(ctx.headers['x-forwarded-host']);
  if (!host || !HOST.test(host)) return undefined;
  const proto = (standard.proto ?? firstValue(ctx.headers['x-forwarded-proto']) ?? 'http').toLowerCase();
  return proto === 'http' || proto === 'https' ? `${proto}://${host}` : undefined;
}

/**
 * Where the request's own path is reached from outside: --public-url (then the path after the base path), or with
 * --trust-proxy the proxy's report of the origin, or else the Host header the request came with.
 */
function publicPath(ctx: RequestContext): string {
  if (ctx.options.publicUrl !== undefined) return `${ctx.options.publicUrl}${ctx.path}`;
  const proxied = ctx.options.trustProxy ? proxiedOrigin(ctx) : undefined;
  if (proxied) return `${proxied}${ctx.rawPath}`;
  const host = ctx.headers.host;
  return `${host && HOST.test(host) ? `http://${host}` : new URL(ctx.baseUrl).origin}${ctx.rawPath}`;
}

/** The URL of the next page: the request's own URL (filters kept as sent) with the cursor of this page's end. */
function nextLink(ctx: RequestContext, last: number): string {
  const query = new URLSearchParams(ctx.query);
  query.delete(CURSOR);
  query.append(CURSOR, cursorOf(last));
  return `${publicPath(ctx)}?${query.toString()}`;
}

export function listPage<K, F>(ctx: RequestContext, table: Table<K, F>, filters: Omit<PageQuery, 'after' | 'limit'>, what: Noun): SimResponse {
  const page = table.page({ ...filters, after: cursorAfter(ctx.query), limit: ctx.options.pageSize });
  const message = page.items.length === 0 ? `No ${what.many} on this page.` : `${counted(page.items.length, what.one, what.many)} on this page.`;
  return listReply(message, page.items, page.more ? nextLink(ctx, page.last) : rules().paginationEnd);
}
