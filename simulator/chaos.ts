// Latency and chaos for demos and for exercising clients: added latency (fixed, a range, or per endpoint), a share
// of requests answered 503 with the spec's error body, and a share of connections closed without an answer.
// Every decision is a pure function of (chaos seed, the request's place in the sequence of API requests), so the
// same seed and the same request sequence give the same decisions; the admin surface never takes part.
import { UsageError } from '../src/errors.js';
import { operations } from '../src/spec/index.js';
import type { ChaosSettings, LatencyRule } from './public.js';

// The settings' types are part of what a started simulator shows (Simulator.options.chaos): declared in public.ts.
export type { ChaosSettings, LatencyRule } from './public.js';

/** What the caller gives; latency as the CLI spells it (`50`, `20-80`, `GET /ats/job-offers=50`). */
export interface ChaosOptions {
  latency?: string | readonly string[];
  errorRate?: number;
  dropRate?: number;
  seed?: number;
}

export interface ChaosDecision {
  delayMs: number;
  fault: 'none' | 'error' | 'drop';
}

/** One added delay at most: far beyond any demo, well within the request timeout a client would use. */
export const MAX_LATENCY_MS = 60_000;
/** Seconds a client is told to wait before retrying a chaos 503. */
export const RETRY_AFTER_SECONDS = 1;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const RULE = /^(?:(?:([A-Za-z]+)\s+)?(\/\S*)\s*=\s*)?(\d+)(?:\s*-\s*(\d+))?$/;

function segments(path: string): string[] {
  return path.split('/').slice(1);
}

const isParam = (segment: string): boolean => /^\{.+\}$/.test(segment);

/** Whether the rule's path pattern matches a request path (or a spec path template, when validating). */
function pathMatches(pattern: readonly string[], path: readonly string[]): boolean {
  if (pattern.length !== path.length) return false;
  return pattern.every((p, i) => {
    const s = path[i] as string;
    return isParam(p) ? s !== '' : p === s || isParam(s);
  });
}

function milliseconds(text: string, rule: string): number {
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms > MAX_LATENCY_MS) {
    throw new UsageError(`latency ${JSON.stringify(rule)}: milliseconds must be a whole number from 0 to ${MAX_LATENCY_MS}`);
  }
  return ms;
}

/** Parses `50`, `20-80`, `/ats/job-offers=50` or `GET /ats/job-offers/{id}=20-80`. */
export function parseLatency(text: string): LatencyRule {
  const rule = text.trim();
  const match = RULE.exec(rule);
  if (!match) {
    throw new UsageError(`latency ${JSON.stringify(text)} is not understood: give milliseconds (50), a range (20-80), or an endpoint and either (GET /ats/job-offers=50)`);
  }
  const [, methodText, path, minText, maxText] = match;
  const method = methodText?.toUpperCase();
  if (method !== undefined && !METHODS.has(method)) throw new UsageError(`latency ${JSON.stringify(rule)}: unknown method ${methodText ?? ''}`);
  if (path !== undefined) {
    const wanted = segments(path);
    const known = operations().some((op) => (method === undefined || op.method === method) && pathMatches(wanted, segments(op.path)));
    if (!known) {
      const paths = [...new Set(operations().map((op) => op.path))].join(', ');
      throw new UsageError(`latency ${JSON.stringify(rule)}: no endpoint ${method ?? ''}${method ? ' ' : ''}${path}; the paths are ${paths}`);
    }
  }
  const minMs = milliseconds(minText as string, rule);
  const maxMs = maxText === undefined ? minMs : milliseconds(maxText, rule);
  if (maxMs < minMs) throw new UsageError(`latency ${JSON.stringify(rule)}: the range runs backwards`);
  return { method, path, minMs, maxMs, text: rule };
}

function rate(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`${name} must be a fraction from 0 to 1 (0.05 is 5%), not ${String(value)}`);
  }
  return value;
}

/** Checked settings; dataSeed is the chaos seed when none is given. */
export function chaosSettings(options: ChaosOptions, dataSeed: number): ChaosSettings {
  const given = options.latency === undefined ? [] : typeof options.latency === 'string' ? [options.latency] : options.latency;
  const latency = given.filter((t) => t.trim() !== '').map(parseLatency);
  const errorRate = rate('error rate', options.errorRate);
  const dropRate = rate('drop rate', options.dropRate);
  if (errorRate + dropRate > 1) throw new UsageError('error rate and drop rate together must not exceed 1');
  const seed = options.seed ?? dataSeed;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UsageError(`chaos seed must be a whole number from 0, not ${String(seed)}`);
  return { latency, errorRate, dropRate, seed };
}

export function chaosActive(settings: ChaosSettings): boolean {
  return settings.errorRate > 0 || settings.dropRate > 0 || settings.latency.some((r) => r.maxMs > 0);
}

/** One line for people: `latency 20-80 ms; 5% errors; 1% dropped; seed 7`, or `off`. */
export function describeChaos(settings: ChaosSettings): string {
  if (!chaosActive(settings)) return 'off';
  const parts: string[] = [];
  if (settings.latency.length > 0) parts.push(`latency ${settings.latency.map((r) => (r.path ? r.text : `${r.text} ms`)).join(', ')}`);
  const percent = (n: number): string => `${Math.round(n * 10_000) / 100}%`;
  if (settings.errorRate > 0) parts.push(`${percent(settings.errorRate)} answered 503`);
  if (settings.dropRate > 0) parts.push(`${percent(settings.dropRate)} dropped`);
  parts.push(`seed ${settings.seed}`);
  return parts.join('; ');
}

/** murmur3's finaliser: a well-mixed 32-bit value from a 32-bit one. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) from the seed, the request's place in the sequence and which draw of that request it is. */
export function draw(seed: number, n: number, k: number): number {
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 0x1_0000_0000) >>> 0;
  let h = fmix(lo ^ 0x9e3779b9);
  h = fmix(h ^ hi);
  h = fmix(h ^ (n >>> 0));
  h = fmix(h ^ Math.floor(n / 0x1_0000_0000));
  h = fmix(h ^ k);
  return h / 0x1_0000_0000;
}

/** The live chaos settings and the count of API requests they have decided on. */
export class Chaos {
  private n = 0;

  constructor(private current: ChaosSettings) {}

  get settings(): ChaosSettings {
    return this.current;
  }

  get active(): boolean {
    return chaosActive(this.current);
  }

  /** New settings; the sequence starts again, so the decisions that follow are the seed's first. */
  configure(settings: ChaosSettings): void {
    this.current = settings;
    this.n = 0;
  }

  /** The sequence starts again (a reset of the simulator does this, so a demo can be replayed). */
  rewind(): void {
    this.n = 0;
  }

  /** The decision for the next API request, undefined when chaos is off. */
  decide(method: string, path: string): ChaosDecision | undefined {
    const s = this.current;
    if (!chaosActive(s)) return undefined;
    const n = this.n++;
    // Each request makes the same two draws whatever the settings, so a decision depends only on seed and place.
    const roll = draw(s.seed, n, 0);
    const fault = roll < s.dropRate ? 'drop' : roll < s.dropRate + s.errorRate ? 'error' : 'none';
    const rule = this.rule(method, path);
    const delayMs = rule ? rule.minMs + Math.floor(draw(s.seed, n, 1) * (rule.maxMs - rule.minMs + 1)) : 0;
    return { delayMs, fault };
  }

  /** The first endpoint rule that matches, else the first rule for every request. */
  private rule(method: string, path: string): LatencyRule | undefined {
    const parts = segments(path);
    const rules = this.current.latency;
    return rules.find((r) => r.path !== undefined && (r.method === undefined || r.method === method) && pathMatches(segments(r.path), parts))
      ?? rules.find((r) => r.path === undefined);
  }
}

/** Waits ms, or less when the request goes away first; the timer never keeps the process alive. */
export function delay(ms: number, gone: { once(event: 'close', listener: () => void): unknown; off(event: 'close', listener: () => void): unknown }): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      gone.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    gone.once('close', done);
  });
}
