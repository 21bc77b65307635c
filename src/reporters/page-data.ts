// The shape of the data report.html embeds (html-data.ts packs it, ui/report.ts draws it): one home for both sides,
// types only, so the browser bundle can import it without pulling in Node code.

/** One exchange as the page shows it: every field is plain text, rendered with textContent. */
export interface PageExchange {
  /** "Exchange #2 · step “create” · sent 2026-… UTC · 12 ms". */
  head: string;
  /** "GET https://…". */
  request: string;
  requestHeaders: [string, string][];
  requestBody?: string;
  /** "HTTP 404 Not Found", absent when no answer came. */
  status?: string;
  responseHeaders?: [string, string][];
  /** Why the body is not JSON, or was cut. */
  note?: string;
  responseBody?: string;
  /** "connection-refused: …" when the request got no answer. */
  transport?: string;
  curl: string;
}

/** An assertion row: held?, level, clause, the clause's title, message, exchange index (or null). */
export type PageAssertion = [held: 0 | 1, level: string, clause: string, title: string, message: string, exchange: number | null];

/** A residue row: resource, operation, reference, id, case id, the case's anchor, created at (UTC). */
export type PageResidue = [resource: string, operation: string, reference: string, id: string, caseId: string, caseAnchor: string, createdAt: string];

export interface PageData {
  /** By case id, in the order the case sent them. */
  exchanges: Record<string, PageExchange[]>;
  /** By case id, every assertion of the case. */
  assertions: Record<string, PageAssertion[]>;
  residue: PageResidue[];
}
