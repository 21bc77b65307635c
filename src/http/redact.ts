// Secrets (the client secret, every token obtained) never reach a report, a log line or a curl line.
import type { Exchange } from '../core/results.js';

export const MASK = '***';

/** Secrets the run has seen; anything recorded is scrubbed of every one of them. */
export class Secrets {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would mask innocent text everywhere; a real secret is never that short.
    if (value && value.length >= 4) this.values.add(value);
  }

  has(value: string): boolean {
    return this.values.has(value);
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.values) out = out.split(secret).join(MASK);
    return out;
  }

  /** A copy of the exchange with secrets masked in URL, headers and bodies (the parsed body is re-derived). */
  redact(exchange: Exchange): Exchange {
    const headers = (h: Record<string, string>): Record<string, string> =>
      Object.fromEntries(Object.entries(h).map(([k, v]) => [k, this.scrub(v)]));
    const copy: Exchange = {
      ...exchange,
      request: {
        ...exchange.request,
        url: this.scrub(exchange.request.url),
        headers: headers(exchange.request.headers),
        ...(exchange.request.body !== undefined ? { body: this.scrub(exchange.request.body) } : {}),
      },
    };
    if (exchange.response) {
      const body = this.scrub(exchange.response.body);
      copy.response = { ...exchange.response, headers: headers(exchange.response.headers), body };
      if (exchange.response.json !== undefined) copy.response.json = scrubJson(exchange.response.json, this);
    }
    return copy;
  }
}

function scrubJson(value: unknown, secrets: Secrets): unknown {
  if (typeof value === 'string') return secrets.scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubJson(v, secrets)]));
  }
  return value;
}
