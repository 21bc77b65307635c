// The bulk of report.html, embedded once as data instead of as markup: the exchanges (header tables, bodies, curl
// lines), every case's assertion table and the residue ledger. As HTML they made a full run's page 3.6 MB of 59,000
// elements that took seconds to open. Here they are reduced to the strings the page shows, gzip-compressed and
// base64-encoded into one inert <script type="application/gzip+base64"> element; the page's script unpacks it with
// the browser's DecompressionStream and builds their DOM (text nodes only, never markup) when they are shown.
import { STATUS_CODES } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Assertion, CaseResult, Exchange, ResidueEntry } from '../core/results.js';
import { curlCommand, DEFAULT_VARIABLES } from './curl.js';
import type { PageAssertion, PageData, PageExchange } from './page-data.js';

/** Bodies longer than this are cut in the page (report.json keeps them whole). */
export const BODY_LIMIT = 64 * 1024;

/**
 * A string value of a JSON body longer than this is shown by its first VALUE_SHOWN characters in the page: the
 * suites send text of 10,000 characters in several scripts, which gzip barely shrinks, and a page of them passed 1 MB.
 */
export const VALUE_LIMIT = 2_048;
const VALUE_SHOWN = 512;

/** JSON.stringify's replacer for the page: a long string value cut, whole code points kept, its length said. */
function shortValues(_key: string, value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= VALUE_LIMIT) return value;
  let head = value.slice(0, VALUE_SHOWN);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `${head}… (${value.length} UTF-16 code units in all: report.json has the whole value)`;
}

const utc = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');

const headerOf = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/**
 * A body as the page shows it: JSON indented, cut at BODY_LIMIT. reparse: false for a body the harness already found
 * unreadable (a hostile one may nest 100,000 levels deep). '' for an empty body.
 */
export function bodyText(text: string | undefined, json: unknown, contentType: string | undefined, reparse = true): string | undefined {
  if (text === undefined) return undefined;
  let out = text;
  if (json !== undefined) out = JSON.stringify(json, shortValues, 2);
  else if (reparse && (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text))) {
    try {
      out = JSON.stringify(JSON.parse(text), shortValues, 2);
    } catch {
      // Not JSON after all: shown as it came.
    }
  }
  if (out.length > BODY_LIMIT) out = `${out.slice(0, BODY_LIMIT)}\n… cut at ${BODY_LIMIT / 1024} KiB here; report.json has the ${text.length} characters the run kept`;
  return out;
}

/** The curl line of an exchange; an expired token cannot be reproduced with a fresh one, so it gets its own variable. */
export function curlFor(ex: Exchange): string {
  const expired = ex.request.auth === 'expired';
  return curlCommand(ex, expired ? { ...DEFAULT_VARIABLES, accessToken: 'RDX_EXPIRED_TOKEN' } : DEFAULT_VARIABLES);
}

export function pageExchange(ex: Exchange, index: number): PageExchange {
  const req = ex.request;
  const res = ex.response;
  const requestBody = req.body !== undefined ? bodyText(req.body, undefined, headerOf(req.headers, 'content-type')) : undefined;
  return {
    head: `Exchange #${index} · step “${ex.step}” · sent ${utc(ex.startedAt)} · ${ex.elapsedMs} ms`,
    request: `${req.method} ${req.url}`,
    requestHeaders: Object.entries(req.headers),
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(res ? {
      status: `HTTP ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd(),
      responseHeaders: Object.entries(res.headers),
      ...(res.bodyProblem ? { note: res.bodyProblem } : {}),
      responseBody: bodyText(res.body, res.json, headerOf(res.headers, 'content-type'), !res.bodyProblem) as string,
    } : { transport: `${ex.transportError?.kind ?? 'unknown'}: ${ex.transportError?.message ?? ''}` }),
    curl: curlFor(ex),
  };
}

export function pageAssertion(a: Assertion, title: string): PageAssertion {
  return [a.passed ? 1 : 0, a.level, a.clause, title, a.message, a.exchange ?? null];
}

export function pageData(cases: CaseResult[], residue: ResidueEntry[], clauseTitle: (id: string) => string,
  anchor: (id: string) => string): PageData {
  // Keyed by case id, which a report file may have crafted ("__proto__"): objects without a prototype.
  const data: PageData = { exchanges: Object.create(null) as PageData['exchanges'], assertions: Object.create(null) as PageData['assertions'], residue: [] };
  for (const c of cases) {
    if (c.exchanges.length) data.exchanges[c.id] = c.exchanges.map(pageExchange);
    if (c.assertions.length) data.assertions[c.id] = c.assertions.map((a) => pageAssertion(a, clauseTitle(a.clause)));
  }
  data.residue = residue.map((e) => [e.resource, e.operationId, e.reference ?? '', String(e.id ?? ''), e.caseId, anchor(e.caseId), utc(e.createdAt)]);
  return data;
}

/** The data as the page embeds it: gzip, then base64 (which never contains "<", so it cannot end its element). */
export function packPageData(data: PageData): string {
  return gzipSync(Buffer.from(JSON.stringify(data), 'utf8'), { level: 9 }).toString('base64');
}
