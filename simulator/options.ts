// The simulator's options: defaults (from the interpretation register where it has one), then each persona's
// options, then the caller's. Bad values are a usage error with a clear message.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { UsageError } from '../src/errors.js';
import { MAX_TOKENS } from './auth.js';
import { chaosSettings } from './chaos.js';
import type { Persona } from './personas/types.js';
import type { RateLimitSettings, ResolvedOptionsOf, SimulatorOptionsOf } from './public.js';
import type { PersonaOptions } from './settings.js';
import { rules } from './rules.js';
import { parseRateLimit } from './rate-limit.js';

/** What startSimulator takes (declared in public.ts, with the simulator's own Persona). */
export type SimulatorOptions = SimulatorOptionsOf<Persona>;
/** The options in force (declared in public.ts, with the simulator's own Persona). */
export type ResolvedOptions = ResolvedOptionsOf<Persona>;

export const DEFAULT_CLIENT_ID = 'rdx-client';
/** The demo secret: printed at start-up, never used where --client-secret or the environment gives another. */
export const DEFAULT_CLIENT_SECRET = 'rdx-secret';
/**
 * Well under a usual file-descriptor limit (1,024 soft is common, and each connection takes one), so that a client
 * that opens connections by the thousand meets the cap, not the limit that would refuse everyone.
 */
export const DEFAULT_MAX_CONNECTIONS = 512;
/** Kept within Node's default heap: a million records take about 0.5 GiB of it. */
export const MAX_RECORDS = 2_000_000;

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

export function integer(name: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`simulator option ${name} must be an integer from ${min} to ${max}, not ${String(value)}`);
  }
  return value;
}

function text(name: string, value: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`simulator option ${name} must be a non-empty string`);
  return value;
}

function basePath(value: string): string {
  if (value === '' || value === '/') return '';
  if (!/^(\/[A-Za-z0-9\-._~%!$&'()*+,;=:@]+)+$/.test(value)) {
    throw new UsageError(`simulator option basePath must look like /api/v1 (starting with /, no trailing /, no query), not ${JSON.stringify(value)}`);
  }
  return value;
}

/** An http(s) URL with no credentials, query or fragment; returned without its trailing slash. */
function publicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`simulator option publicUrl must be an absolute http or https URL, not ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw new UsageError(`simulator option publicUrl must be an http or https URL without credentials, query or fragment, not ${JSON.stringify(value)}`);
  }
  return url.href.replace(/\/$/, '');
}

function defined(options: SimulatorOptions | PersonaOptions): Partial<SimulatorOptions> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<SimulatorOptions>;
}

function retryAfterForm(value: string | undefined): 'seconds' | 'http-date' {
  if (value === undefined || value === 'seconds' || value === 'http-date') return value ?? 'seconds';
  throw new UsageError(`simulator option rateLimitRetryAfter must be seconds or http-date, not ${JSON.stringify(value)}`);
}

function rateLimitOf(merged: SimulatorOptions): RateLimitSettings {
  const settings = parseRateLimit(merged.rateLimit ?? '', retryAfterForm(merged.rateLimitRetryAfter));
  if (merged.deleteRateLimit === undefined) return settings;
  const { rate, burst } = parseRateLimit(merged.deleteRateLimit);
  return { ...settings, deletes: { rate, burst } };
}

export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  const personas = options.personas ?? [];
  const merged: SimulatorOptions = {};
  for (const persona of personas) Object.assign(merged, defined(persona.options ?? {}));
  Object.assign(merged, defined(options));
  const r = rules();
  const host = text('host', merged.host ?? '127.0.0.1');
  const admin = merged.admin ?? true;
  const seed = integer('seed', merged.seed ?? 1, 0, Number.MAX_SAFE_INTEGER);
  return {
    host,
    port: integer('port', merged.port ?? 0, 0, 65_535),
    seed,
    records: integer('records', merged.records ?? 1000, 0, MAX_RECORDS),
    pageSize: integer('pageSize', merged.pageSize ?? r.pageSize, 1, 10_000),
    clientId: text('clientId', merged.clientId ?? DEFAULT_CLIENT_ID),
    clientSecret: text('clientSecret', merged.clientSecret ?? DEFAULT_CLIENT_SECRET),
    tokenTtl: integer('tokenTtl', merged.tokenTtl ?? 3600, 1, 31_536_000),
    maxBodyBytes: integer('maxBodyBytes', merged.maxBodyBytes ?? r.maxBodyBytes, 1, 1 << 30),
    basePath: basePath(merged.basePath ?? ''),
    admin,
    adminToken: merged.adminToken !== undefined
      ? text('adminToken', merged.adminToken)
      : admin && !isLoopback(host) ? randomBytes(18).toString('base64url') : undefined,
    personas,
    now: options.now ?? Date.now,
    journalSize: integer('journalSize', merged.journalSize ?? 500, 0, 100_000),
    headersTimeoutMs: integer('headersTimeoutMs', merged.headersTimeoutMs ?? 10_000, 1, 600_000),
    requestTimeoutMs: integer('requestTimeoutMs', merged.requestTimeoutMs ?? 30_000, 1, 3_600_000),
    chaos: chaosSettings({ latency: merged.latency, errorRate: merged.errorRate, dropRate: merged.dropRate, seed: merged.chaosSeed }, seed),
    rateLimit: merged.rateLimit !== undefined ? rateLimitOf(merged) : undefined,
    reportDir: merged.reportDir !== undefined ? text('reportDir', merged.reportDir) : undefined,
    maxConnections: integer('maxConnections', merged.maxConnections ?? DEFAULT_MAX_CONNECTIONS, 1, 1_000_000),
    maxTokens: integer('maxTokens', merged.maxTokens ?? MAX_TOKENS, 1, 10_000_000),
    stateFile: merged.stateFile !== undefined ? text('stateFile', merged.stateFile) : undefined,
    publicUrl: merged.publicUrl !== undefined ? publicUrl(merged.publicUrl) : undefined,
    trustProxy: merged.trustProxy === true,
  };
}
