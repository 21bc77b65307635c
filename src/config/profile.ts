// The target profile: flags > environment > config file > defaults. Secrets come from the environment or flags.
import { existsSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { LineCounter, parseDocument, isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { interpretations, packageRoot } from '../spec/index.js';
import { newAjv } from '../spec/schemas.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../core/suggest.js';
import type { ExpiresInUnit } from '../http/auth.js';
import { DEFAULT_MAX_TOTAL_WAIT_MS, DEFAULT_MAX_WAIT_MS } from '../http/throttle.js';
import { stripUserinfo, stripUserinfoInText } from '../http/redact.js';

/** The vendor's declared choices, keyed by the interpretation register's `key`. */
export type ProfileDeclared = Record<string, unknown>;

// How the harness learns the {id} of a record it created (src/engine/id-sources.ts, docs/verdicts.md).
import type { IdSource, IdSources } from '../core/conformance.js';
export type { IdSource, IdSources };
/** @deprecated the same as IdSource; kept for atsJobOfferIdSource. */
export type AtsJobOfferIdSource = IdSource;

export interface Profile {
  baseUrl?: string;
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  declared: ProfileDeclared;
  fixtures: { atsJobOfferIds?: string[]; expiredToken?: string };
  /** How to learn the {id} of each record the run creates whose answer does not show it, per resource. */
  idSources?: IdSources;
  /** The same as idSources.atsJobOffer (its name before every resource had one). */
  atsJobOfferIdSource?: IdSource;
  http: {
    timeoutMs: number; retries: number; insecure: boolean; ca?: string; proxy?: string; maxResponseBytes: number;
    /** Requests per second the run holds itself to (--rate); none by default. */
    rateLimit?: number;
    /** Longest single wait after a throttled answer (429, 503 with Retry-After). */
    maxWaitMs: number;
    /** All waits after throttled answers in one run together. */
    maxTotalWaitMs: number;
  };
  seed: number;
  allowIrreversible: boolean;
  /** How many cases may run side by side (rdx run --concurrency); the engine's default when absent. */
  concurrency?: number;
  /** What each explore case may spend (rdx run --explore-budget; docs/explore.md); the engine's default when absent. */
  explore?: { requests: number; seconds: number };
  /** Where the file was read from, if any. */
  source?: string;
  /** The file's strings that held `${env:NAME}`, as written and as expanded (the report shows them as written). */
  envExpansions?: EnvExpansion[];
}

export interface EnvExpansion {
  /** The top-level key of the file it stands under (credentials, atsJobOfferIdSource, …). */
  key: string;
  written: string;
  expanded: string;
  /** The values of the environment variables it took. */
  values: string[];
}

export const DEFAULT_CONFIG_FILES = ['rdx.config.yaml', 'rdx.config.yml', 'rdx.config.json'];

export const defaults = (): Profile => ({
  declared: {},
  fixtures: {},
  http: {
    timeoutMs: 10_000, retries: 0, insecure: false, maxResponseBytes: 20 * 1024 * 1024,
    maxWaitMs: DEFAULT_MAX_WAIT_MS, maxTotalWaitMs: DEFAULT_MAX_TOTAL_WAIT_MS,
  },
  seed: 1,
  allowIrreversible: false,
});

/** What flags can set; undefined means "not given". */
export interface ProfileFlags {
  config?: string;
  baseUrl?: string;
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  timeout?: number;
  retries?: number;
  /** Requests per second (--rate). */
  rate?: number;
  insecure?: boolean;
  ca?: string;
  proxy?: string;
  seed?: number;
  allowIrreversible?: boolean;
  concurrency?: number;
  /** --explore-budget: requests, and seconds when given (REQUESTS or REQUESTS/SECONDS). */
  exploreBudget?: { requests: number; seconds?: number };
}

/** "credentials.clientId", "fixtures.atsJobOfferIds[0]": a key path as the user wrote it, from a JSON pointer's parts. */
export function keyPath(parts: (string | number)[]): string {
  return parts.reduce<string>((out, part) => (typeof part === 'number' || /^\d+$/.test(String(part)) ? `${out}[${part}]` : out ? `${out}.${part}` : String(part)), '') || '(the whole file)';
}

const pointerParts = (pointer: string): string[] => pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * Replaces ${env:NAME} in every string; a missing variable is a problem naming the key where it was used. Each string
 * expanded is told to `record` with the top-level key it stands under.
 */
function expandEnv(value: unknown, env: NodeJS.ProcessEnv, at: string[], problems: { at: string[]; message: string }[],
  record?: (e: EnvExpansion) => void, key = ''): unknown {
  if (typeof value === 'string') {
    const values: string[] = [];
    const expanded = value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const v = env[name];
      if (v === undefined) {
        problems.push({ at, message: `environment variable ${name} is not set` });
        return whole;
      }
      values.push(v);
      return v;
    });
    if (values.length) record?.({ key, written: value, expanded, values });
    return expanded;
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, env, [...at, String(i)], problems, record, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env, [...at, k], problems, record, key || k)]));
  }
  return value;
}

/**
 * The line of a key path in the file: the line of the key itself (an unknown key, a wrong value), not of the value
 * below it; the nearest enclosing key that exists, else line 1.
 */
function lineOf(root: YamlNode | null, parts: string[], counter: LineCounter): number {
  let node: YamlNode | null = root;
  let line = 1;
  for (const part of parts) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === part);
      if (!pair) break;
      const keyRange = isScalar(pair.key) ? pair.key.range : undefined;
      if (keyRange) line = counter.linePos(keyRange[0]).line;
      node = (pair.value as YamlNode | null) ?? null;
    } else if (isSeq(node)) {
      const item = node.get(Number(part), true) as YamlNode | undefined;
      if (!item) break;
      if (item.range) line = counter.linePos(item.range[0]).line;
      node = item;
    } else break;
  }
  return line;
}

let profileSchema: Record<string, unknown> | undefined;
/** src/config/rdx.config.schema.json, read once. */
export function readProfileSchema(): Record<string, unknown> {
  profileSchema ??= JSON.parse(readFileSync(resolvePath(packageRoot, 'src/config/rdx.config.schema.json'), 'utf8')) as Record<string, unknown>;
  return profileSchema;
}

/** The schema of one profile key, by its path (['http', 'timeoutMs']). */
function schemaAt(path: string[]): { type?: string; minimum?: number; maximum?: number; properties?: Record<string, unknown> } | undefined {
  let node: unknown = readProfileSchema();
  for (const part of path) node = (node as { properties?: Record<string, unknown> } | undefined)?.properties?.[part];
  return node as ReturnType<typeof schemaAt>;
}

/**
 * A number given on the command line for a profile key, checked against that key's schema so that a flag and the
 * file take the same range; the message names the flag, the unit, the range and what was given.
 */
export function numberFlag(flag: string, value: unknown, path: string[], unit: string): number {
  const s = schemaAt(path) ?? {};
  const n = typeof value === 'number' ? value : Number(value);
  const whole = s.type === 'integer';
  const ok = Number.isFinite(n) && (!whole || Number.isInteger(n))
    && (s.minimum === undefined || n >= s.minimum) && (s.maximum === undefined || n <= s.maximum);
  if (ok) return n;
  const range = s.minimum !== undefined && s.maximum !== undefined ? `from ${s.minimum} to ${s.maximum}`
    : s.minimum !== undefined ? `of at least ${s.minimum}` : s.maximum !== undefined ? `of at most ${s.maximum}` : '';
  const given = Number.isNaN(n) ? 'something that is not a number' : String(value);
  throw new UsageError(`${flag} takes ${unit}: ${whole ? 'a whole number' : 'a number'}${range ? ` ${range}` : ''}; got ${given} (profile key ${path.join('.')})`, 'RDX_ERR_CONFIG');
}

/** "unknown field timeout: did you mean `timeoutMs`? (known: …)" */
function unknownKey(name: string, known: string[], what: string): string {
  const suggestion = didYouMean(name, known);
  return `unknown ${what} ${name}${suggestion ? `: did you mean \`${suggestion}\`?` : ''} (known: ${known.join(', ')})`;
}

/** The line in error with the one before it, numbered, and a caret under the column: what a YAML error points at. */
export function codeFrame(text: string, line: number, col: number): string {
  const lines = text.split(/\r?\n/);
  const width = String(line).length;
  const numbered = (n: number): string => `${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`;
  return [
    ...(line > 1 ? [numbered(line - 1)] : []),
    numbered(line),
    `${' '.repeat(width)} | ${' '.repeat(Math.max(0, col - 1))}^`,
  ].map((l) => `  ${l}`).join('\n');
}

/** Reads and checks a config file; every problem is reported as file:line: field: message. */
export function readConfigFile(path: string, env: NodeJS.ProcessEnv = process.env, record?: (e: EnvExpansion) => void): Record<string, unknown> {
  if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`, 'RDX_ERR_CONFIG');
  const counter = new LineCounter();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`config file ${path} cannot be read: ${(error as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a directory' : (error as Error).message}`, 'RDX_ERR_CONFIG');
  }
  const doc = parseDocument(text, { lineCounter: counter });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const { line = 1, col = 1 } = yamlError.linePos?.[0] ?? {};
    // yaml's message ends "at line L, column C:" followed by its own frame; ours is the same for every file error.
    const what = yamlError.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'not valid YAML';
    const more = doc.errors.length > 1 ? `\n(${doc.errors.length - 1} more YAML error(s) after this one)` : '';
    throw new UsageError(`${path}:${line}:${col}: not valid YAML: ${what}\n${codeFrame(text, line, col)}${more}`, 'RDX_ERR_CONFIG');
  }
  let raw: Record<string, unknown>;
  try {
    raw = (doc.toJS() ?? {}) as Record<string, unknown>;
  } catch (error) {
    // yaml refuses here, not while parsing, aliases that expand past its limit (an alias bomb): the file's fault.
    throw new UsageError(`${path}: not valid YAML: ${(error as Error).message}`, 'RDX_ERR_CONFIG');
  }
  // A section whose entries are all commented out reads as null: treat it as empty.
  for (const [k, v] of Object.entries(raw)) if (v === null) delete raw[k];
  // A declared key left without a value declares nothing (it would otherwise be compared as null).
  const declaredMap = raw['declared'];
  if (declaredMap && typeof declaredMap === 'object') for (const [k, v] of Object.entries(declaredMap)) if (v === null) delete (declaredMap as Record<string, unknown>)[k];
  const ajv = newAjv({ allErrors: true, strict: false, verbose: true });
  const validate = ajv.compile(readProfileSchema());
  const problems: string[] = [];
  // file:line: key.path: message, the key path apart from the file's (a reader must see where one ends).
  const problem = (parts: string[], message: string): void => {
    problems.push(`${path}:${lineOf(doc.contents, parts, counter)}: ${keyPath(parts)}: ${message}`);
  };
  if (!validate(raw)) {
    for (const e of validate.errors ?? []) {
      if (e.keyword === 'additionalProperties') {
        const name = (e.params as { additionalProperty: string }).additionalProperty;
        const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
        problem([...pointerParts(e.instancePath), name], unknownKey(name, known, 'field'));
      } else {
        problem(pointerParts(e.instancePath), `${e.message ?? 'invalid'}; got ${JSON.stringify(e.data)}`);
      }
    }
  }
  const keys = new Set(interpretations().map((i) => i.key).filter(Boolean));
  const declared = (raw as { declared?: Record<string, unknown> }).declared ?? {};
  for (const key of Object.keys(declared)) {
    if (!keys.has(key)) problem(['declared', key], unknownKey(key, [...keys].filter((k): k is string => !!k), 'key'));
  }
  const idSources = raw['idSources'] as Record<string, unknown> | undefined;
  if (raw['atsJobOfferIdSource'] !== undefined && idSources?.['atsJobOffer'] !== undefined) {
    problem(['atsJobOfferIdSource'], 'give the ATS job offers\' id source once: atsJobOfferIdSource is the older name of idSources.atsJobOffer');
  }
  const missingEnv: { at: string[]; message: string }[] = [];
  const expanded = expandEnv(raw, env, [], missingEnv, record) as Record<string, unknown>;
  for (const p of missingEnv) problem(p.at, p.message);
  if (problems.length) throw new UsageError(`bad config file:\n${problems.join('\n')}`, 'RDX_ERR_CONFIG');
  return expanded;
}

/** Builds the profile with flags > env > file > defaults. */
export function loadProfile(flags: ProfileFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Profile {
  const profile = defaults();
  const file = flags.config ?? DEFAULT_CONFIG_FILES.map((f) => resolvePath(cwd, f)).find((f) => existsSync(f));
  if (file) {
    const envExpansions: EnvExpansion[] = [];
    const c = readConfigFile(resolvePath(cwd, file), env, (e) => envExpansions.push(e)) as {
      baseUrl?: string; tokenUrl?: string; credentials?: { clientId?: string; clientSecret?: string };
      declared?: ProfileDeclared; fixtures?: Profile['fixtures']; http?: Partial<Profile['http']>; seed?: number; allowIrreversible?: boolean;
      concurrency?: number; atsJobOfferIdSource?: IdSource; idSources?: IdSources; explore?: Profile['explore'];
    };
    profile.source = file;
    if (envExpansions.length) profile.envExpansions = envExpansions;
    Object.assign(profile, {
      ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
      ...(c.tokenUrl ? { tokenUrl: c.tokenUrl } : {}),
      ...(c.credentials?.clientId ? { clientId: c.credentials.clientId } : {}),
      ...(c.credentials?.clientSecret ? { clientSecret: c.credentials.clientSecret } : {}),
      declared: c.declared ?? {},
      fixtures: c.fixtures ?? {},
      ...(c.atsJobOfferIdSource ? { atsJobOfferIdSource: c.atsJobOfferIdSource } : {}),
      ...(c.idSources ? { idSources: c.idSources } : {}),
      ...(c.seed !== undefined ? { seed: c.seed } : {}),
      ...(c.allowIrreversible !== undefined ? { allowIrreversible: c.allowIrreversible } : {}),
      ...(c.concurrency !== undefined ? { concurrency: c.concurrency } : {}),
      ...(c.explore !== undefined ? { explore: c.explore } : {}),
    });
    profile.http = { ...profile.http, ...(c.http ?? {}) };
  }
  // The signing key never reaches a target, but it is a secret of the run like any value the environment holds.
  const signKey = env['RDX_SIGN_KEY'];
  if (signKey) (profile.envExpansions ??= []).push({ key: 'RDX_SIGN_KEY', written: '${env:RDX_SIGN_KEY}', expanded: signKey, values: [signKey, ...pemBodyLines(signKey)] });
  if (env['RDX_BASE_URL']) profile.baseUrl = env['RDX_BASE_URL'];
  if (env['RDX_CLIENT_ID']) profile.clientId = env['RDX_CLIENT_ID'];
  if (env['RDX_CLIENT_SECRET']) profile.clientSecret = env['RDX_CLIENT_SECRET'];
  if (flags.baseUrl !== undefined) profile.baseUrl = flags.baseUrl;
  if (flags.tokenUrl !== undefined) profile.tokenUrl = flags.tokenUrl;
  if (flags.clientId !== undefined) profile.clientId = flags.clientId;
  if (flags.clientSecret !== undefined) profile.clientSecret = flags.clientSecret;
  if (flags.timeout !== undefined) profile.http.timeoutMs = flags.timeout;
  if (flags.retries !== undefined) profile.http.retries = flags.retries;
  if (flags.rate !== undefined) profile.http.rateLimit = flags.rate;
  if (flags.insecure !== undefined) profile.http.insecure = flags.insecure;
  if (flags.ca !== undefined) profile.http.ca = flags.ca;
  if (flags.proxy !== undefined) profile.http.proxy = flags.proxy;
  if (flags.seed !== undefined) profile.seed = flags.seed;
  if (flags.allowIrreversible !== undefined) profile.allowIrreversible = flags.allowIrreversible;
  if (flags.concurrency !== undefined) profile.concurrency = flags.concurrency;
  if (flags.exploreBudget !== undefined) {
    const { requests, seconds } = flags.exploreBudget;
    profile.explore = { requests, seconds: seconds ?? profile.explore?.seconds ?? Math.max(20, Math.ceil(requests / 20)) };
  }
  for (const [what, value] of [['base URL', profile.baseUrl], ['token URL', profile.tokenUrl]] as const) {
    if (value !== undefined && !isHttpUrl(value)) throw new UsageError(`${what} ${JSON.stringify(stripUserinfoInText(stripUserinfo(value)))} is not an http(s) URL`, 'RDX_ERR_CONFIG');
  }
  return profile;
}

/** Whether a URL given for a target parses and is http or https. */
export function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The base64 lines of a PEM text, each a part of the key that a message might otherwise quote. */
function pemBodyLines(text: string): string[] {
  return /-----BEGIN /.test(text) ? text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('-----')) : [];
}

/** A declared value, typed by the caller; undefined when the vendor declared nothing. */
export function declaredValue<T>(profile: Profile, key: string): T | undefined {
  return profile.declared[key] as T | undefined;
}

export const expiresInUnit = (profile: Profile): ExpiresInUnit => declaredValue<ExpiresInUnit>(profile, 'expiresInUnit') ?? 'seconds';

/**
 * The profile as it may appear in a report: secrets replaced by where they came from, strings that took an
 * environment variable as written (`${env:NAME}`), and URLs (base, token, proxy, id source) without userinfo.
 */
export function redactedProfile(profile: Profile): Record<string, unknown> {
  const { envExpansions, ...rest } = profile;
  const written = new Map((envExpansions ?? []).map((e) => [e.expanded, e.written]));
  const asWritten = (value: unknown): unknown => {
    if (typeof value === 'string') return written.get(value) ?? value;
    if (Array.isArray(value)) return value.map(asWritten);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asWritten(v)]));
    return value;
  };
  // As written first: a URL that took ${env:…} is found by its expanded text, userinfo and all.
  const url = (value: string | undefined): string | undefined => (value === undefined ? undefined : stripUserinfo(asWritten(value) as string));
  const source = rest.atsJobOfferIdSource;
  const sources = rest.idSources ? Object.fromEntries(Object.entries(rest.idSources).map(([k, v]) => [k, v && 'url' in v ? { ...v, url: url(v.url) } : v])) : undefined;
  return asWritten({
    ...rest,
    ...(rest.baseUrl !== undefined ? { baseUrl: url(rest.baseUrl) } : {}),
    ...(rest.tokenUrl !== undefined ? { tokenUrl: url(rest.tokenUrl) } : {}),
    clientSecret: rest.clientSecret ? '***' : undefined,
    fixtures: { ...rest.fixtures, ...(rest.fixtures.expiredToken ? { expiredToken: '***' } : {}) },
    http: { ...rest.http, ...(rest.http.proxy !== undefined ? { proxy: url(rest.http.proxy) } : {}) },
    ...(source && 'url' in source ? { atsJobOfferIdSource: { ...source, url: url(source.url) } } : {}),
    ...(sources ? { idSources: sources } : {}),
  }) as Record<string, unknown>;
}
