// The report's memory budget: every exchange a case records is masked, and kept parsed and whole only while the run
// can afford it. One budget per run, shared by every case.
import { bodyObject } from '../checks/registry.js';
import { answerWeight } from '../core/json-scan.js';
import type { Exchange } from '../core/results.js';
import type { HttpClient } from '../http/client.js';
import type { Secrets } from '../http/redact.js';

/**
 * Memory bounds against a target that answers huge or object-heavy bodies (each is already capped by
 * maxResponseBytes), in bytes as parsed (jsonScan: 60 KB of empty objects take 1.3 MB parsed): once a step is
 * judged, the report keeps a body parsed and whole only while the run has kept under KEPT_BYTES in all and the body
 * is under KEPT_ONE, else its text, cut to its first KEPT_CUT characters when longer. A full run against the
 * simulator keeps about 1 MiB, so none of this touches a normal report.
 */
const KEPT_BYTES = 16 * 1024 * 1024;
const KEPT_ONE = 1024 * 1024;
const KEPT_CUT = 8 * 1024;
/** The longest the runner works without letting timers and signals (the deadline, SIGINT) be heard. */
const SLICE_MS = 20;

export class ReportBudget {
  /** Bytes (as parsed) of response bodies kept whole so far (KEPT_BYTES). */
  private kept = 0;

  constructor(private readonly secrets: Secrets, private readonly http: HttpClient) {}

  /**
   * Masks and budgets, in place, a case's exchanges from index `from` to `to` (those recorded since the last call),
   * and returns where the next call starts: in slices that yield to the event loop, so that masking a long walk never
   * keeps a stop (deadline, signal) from being heard. Once the run is stopped, what is left is kept without its
   * bodies, masked.
   */
  async store(list: Exchange[], from: number, to = list.length): Promise<number> {
    // A token a case obtained itself (the token cases) is a live credential too: masked like the run's own.
    for (let i = from; i < to; i++) this.secrets.add(issuedToken(list[i] as Exchange));
    const halt = this.http.options.halt;
    let slice = performance.now();
    for (let i = from; i < to; i++) {
      if (performance.now() - slice > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      const ex = list[i] as Exchange;
      list[i] = halt?.aborted ? this.secrets.withoutBodies(ex, `not kept: the run was stopped (${String(halt.reason)})`) : this.keep(ex);
    }
    return to;
  }

  /**
   * The exchange as the report keeps it, masked: parsed and whole within the run's budget (KEPT_BYTES), else as text,
   * cut when long. The budget is decided on the raw body, so a body that is cut is only masked as far as it is kept.
   */
  private keep(ex: Exchange): Exchange {
    const { secrets } = this;
    const res = ex.response;
    const size = res?.body.length ?? 0;
    const weight = !res ? 0 : size > KEPT_ONE ? Infinity : answerWeight(res);
    if (weight <= KEPT_ONE && this.kept + weight <= KEPT_BYTES) {
      this.kept += weight;
      // The HTTP client's exchange: its parsed body is JSON.parse of its text.
      return secrets.redact(ex, { parsedFromBody: true });
    }
    if (!res || size <= KEPT_CUT) return secrets.redact(ex, { json: false });
    const cut = secrets.redact(ex, { cut: KEPT_CUT });
    const note = `the report keeps the first ${(cut.response as NonNullable<Exchange['response']>).body.length} of ${size} characters of this body`;
    (cut.response as NonNullable<Exchange['response']>).bodyProblem = res.bodyProblem ? `${res.bodyProblem}; ${note}` : note;
    return cut;
  }
}

/** The access token a response hands out, read from the parsed body or, failing that, from the text. */
function issuedToken(ex: Exchange): string | undefined {
  const value = bodyObject(ex)?.['access_token'];
  if (typeof value === 'string') return value;
  return /"access_token"\s*:\s*"([^"\\]+)"/.exec(ex.response?.body.slice(0, 4_096) ?? '')?.[1];
}
