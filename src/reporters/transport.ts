// One sentence on what a run met from a rate-limiting target (RunReport.transport), the same on the console and in
// report.html: how many answers were throttled, per endpoint, and how long the run waited.
import { operations } from '../spec/index.js';
import type { TransportStats } from '../http/throttle.js';

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** A report file may be crafted: only numbers count, and only from an object. */
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
function counts(value: unknown): [string, number][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  // Keys are endpoint numbers, or "other": nothing else is carried into a merged report or onto a page.
  return Object.entries(value).filter(([k, n]) => /^(\d{1,3}|other)$/.test(k) && num(n) > 0).map(([k, n]) => [k, num(n)]);
}

/** undefined when the run met no throttling and held itself to no pace (nothing worth a line). */
export function transportSummary(transport: TransportStats | undefined): string | undefined {
  if (!transport) return undefined;
  const entries = counts(transport.throttled);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0 && num(transport.pacedMs) === 0) return undefined;
  const name = (endpoint: string): string => {
    const op = operations().find((o) => String(o.endpoint) === endpoint);
    return op ? `${op.method} ${op.path}` : endpoint;
  };
  const per = entries.sort(([, a], [, b]) => b - a).map(([e, n]) => `${name(e)} ${n}`).join(', ');
  const parts = [
    total > 0 ? `${total} answer(s) throttled (429, or 503 with Retry-After) and sent again: ${per}` : 'no answer throttled',
    `waited ${seconds(num(transport.waitedMs))} after them`,
    ...(num(transport.pacedMs) > 0 ? [`${seconds(num(transport.pacedMs))} held to the client-side pace${num(transport.rateLimit) > 0 ? ` (ending at ${num(transport.rateLimit)} requests/s)` : ''}`] : []),
    ...(num(transport.gaveUp) > 0 ? [`${num(transport.gaveUp)} request(s) given up (no answer)`] : []),
  ];
  return `Throttling: ${parts.join('; ')}`;
}

/** The shards' transport figures added up (rdx report): each shard waited on its own. */
export function mergeTransport(parts: (TransportStats | undefined)[]): TransportStats | undefined {
  const present = parts.filter((p): p is TransportStats => typeof p === 'object' && p !== null);
  if (present.length === 0) return undefined;
  const throttled: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const p of present) {
    for (const [endpoint, n] of counts(p.throttled)) throttled[endpoint] = (throttled[endpoint] ?? 0) + n;
  }
  const sum = (key: 'waitedMs' | 'pacedMs' | 'gaveUp'): number => present.reduce((total, p) => total + num(p[key]), 0);
  return { throttled: { ...throttled }, waitedMs: sum('waitedMs'), pacedMs: sum('pacedMs'), gaveUp: sum('gaveUp') };
}
