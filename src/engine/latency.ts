// The target's latency during a run: per endpoint, how fast the implementation answered the harness's requests.
// A conformance run sends a few hundred requests one at a time, so these numbers describe this run, not capacity:
// it is not a load test. Requests that got no answer (timeouts, refused connections) are not counted.
import { operations } from '../spec/index.js';
import type { CaseResult } from '../core/results.js';

import type { Latency } from '../core/report.js';

export type { EndpointLatency, Latency } from '../core/report.js';

type EndpointMatcher = { endpoint: number; method: string; pattern: RegExp; params: number };
let compiled: EndpointMatcher[] | undefined;

/**
 * Operation templates as regular expressions, literal paths before parameterised ones (…/batch before …/{id}):
 * compiled once (the spec does not change during a process), as every request of a run asks for its endpoint.
 */
function matchers(): EndpointMatcher[] {
  compiled ??= operations().map((op) => ({
    endpoint: op.endpoint,
    method: op.method,
    pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`),
    params: (op.path.match(/\{/g) ?? []).length,
  })).sort((a, b) => a.params - b.params);
  return compiled;
}

/**
 * The endpoint an exchange addressed: its path below the base URL's own path, matched against the OpenAPI templates;
 * the token URL (which may live elsewhere) is endpoint 1. undefined for a request to no endpoint of the spec.
 */
export function endpointOf(method: string, url: string, baseUrl: string, tokenUrl?: string): number | undefined {
  let path: string;
  try {
    const u = new URL(url);
    if (tokenUrl && `${u.origin}${u.pathname}` === tokenUrl.replace(/\?.*$/, '')) return 1;
    const prefix = new URL(baseUrl).pathname.replace(/\/$/, '');
    path = u.pathname.startsWith(prefix) ? u.pathname.slice(prefix.length) : u.pathname;
  } catch {
    return undefined;
  }
  return matchers().find((m) => m.method === method.toUpperCase() && m.pattern.test(path))?.endpoint;
}

/** Nearest-rank percentile of sorted values: a value that was measured, never an interpolation. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export function latencyOf(cases: CaseResult[], baseUrl: string, tokenUrl?: string): Latency {
  const times = new Map<number, number[]>();
  for (const c of cases) {
    for (const ex of c.exchanges) {
      if (!ex.response) continue;
      const endpoint = endpointOf(ex.request.method, ex.request.url, baseUrl, tokenUrl);
      if (endpoint === undefined) continue;
      times.set(endpoint, [...(times.get(endpoint) ?? []), ex.elapsedMs]);
    }
  }
  const latency: Latency = {};
  for (const [endpoint, list] of [...times].sort(([a], [b]) => a - b)) {
    const sorted = [...list].sort((a, b) => a - b);
    latency[String(endpoint)] = {
      count: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) as number,
    };
  }
  return latency;
}
