// The target profile: flags > environment > config file > defaults. Secrets come from the environment or flags.
import { existsSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LineCounter, parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import { interpretations, packageRoot } from '../spec/index.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../core/suggest.js';
import type { ExpiresInUnit } from '../http/auth.js';

/** The vendor's declared choices, keyed by the interpretation register's `key`. */
export type ProfileDeclared = Record<string, unknown>;

/** How the harness learns the {id} of an ATS job offer it created (src/engine/job-offer-ids.ts, docs/verdicts.md). */
export type AtsJobOfferIdSource = { command: string } | { file: string } | { url: string };

export interface Profile {
  baseUrl?: string;
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  declared: ProfileDeclared;
  fixtures: { atsJobOfferIds?: string[]; expiredToken?: string };
  /** How to learn the {id} of each ATS job offer the run creates, when it is not the reference. */
  atsJobOfferIdSource?: AtsJobOfferIdSource;
  http: { timeoutMs: number; retries: number; insecure: boolean; ca?: string; proxy?: string; maxResponseBytes: number };
  seed: number;
  allowIrreversible: boolean;
  /** Where the file was read from, if any. */
  source?: string;
}

export const DEFAULT_CONFIG_FILES = ['rdx.config.yaml', 'rdx.config.yml', 'rdx.config.json'];

export const defaults = (): Profile => ({
  declared: {},
  fixtures: {},
  http: { timeoutMs: 10_000, retries: 0, insecure: false, maxResponseBytes: 20 * 1024 * 1024 },
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
  insecure?: boolean;
  ca?: string;
  proxy?: string;
  seed?: number;
  allowIrreversible?: boolean;
}

/** Replaces ${env:NAME} in every string; a missing variable is a usage error naming where it was used. */
function expandEnv(value: unknown, env: NodeJS.ProcessEnv, where: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const v = env[name];
      if (v === undefined) throw new UsageError(`${where}: environment variable ${name} is not set`);
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, env, `${where}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env, `${where}.${k}`)]));
  }
  return value;
}

function lineOf(root: YamlNode | null, path: string, counter: LineCounter): number {
  let node: YamlNode | null = root;
  for (const part of path.split('/').filter(Boolean)) {
    if (isMap(node)) node = (node.get(part, true) as YamlNode | undefined) ?? node;
    else if (isSeq(node)) node = (node.get(Number(part), true) as YamlNode | undefined) ?? node;
  }
  return node?.range ? counter.linePos(node.range[0]).line : 1;
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
  const ok = Number.isFinite(n) && (!whole || Number.isInteger(n)) && (s.minimum === undefined || n >= s.minimum) && (s.maximum === undefined || n <= s.maximum);
  if (ok) return n;
  const range = s.minimum !== undefined && s.maximum !== undefined ? `from ${s.minimum} to ${s.maximum}`
    : s.minimum !== undefined ? `of at least ${s.minimum}` : s.maximum !== undefined ? `of at most ${s.maximum}` : '';
  const given = Number.isNaN(n) ? 'something that is not a number' : String(value);
  throw new UsageError(`${flag} takes ${unit}: ${whole ? 'a whole number' : 'a number'}${range ? ` ${range}` : ''}; got ${given} (profile key ${path.join('.')})`);
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
export function readConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`);
  const counter = new LineCounter();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`config file ${path} cannot be read: ${(error as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a directory' : (error as Error).message}`);
  }
  const doc = parseDocument(text, { lineCounter: counter });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const { line = 1, col = 1 } = yamlError.linePos?.[0] ?? {};
    // yaml's message ends "at line L, column C:" followed by its own frame; ours is the same for every file error.
    const what = yamlError.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'not valid YAML';
    const more = doc.errors.length > 1 ? `\n(${doc.errors.length - 1} more YAML error(s) after this one)` : '';
    throw new UsageError(`${path}:${line}:${col}: not valid YAML: ${what}\n${codeFrame(text, line, col)}${more}`);
  }
  let raw: Record<string, unknown>;
  try {
    raw = (doc.toJS() ?? {}) as Record<string, unknown>;
  } catch (error) {
    // yaml refuses here, not while parsing, aliases that expand past its limit (an alias bomb): the file's fault.
    throw new UsageError(`${path}: not valid YAML: ${(error as Error).message}`);
  }
  // A section whose entries are all commented out reads as null: treat it as empty.
  for (const [k, v] of Object.entries(raw)) if (v === null) delete raw[k];
  // A declared key left without a value declares nothing (it would otherwise be compared as null).
  const declaredMap = raw['declared'];
  if (declaredMap && typeof declaredMap === 'object') for (const [k, v] of Object.entries(declaredMap)) if (v === null) delete (declaredMap as Record<string, unknown>)[k];
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
  const validate = ajv.compile(readProfileSchema());
  const problems: string[] = [];
  if (!validate(raw)) {
    for (const e of validate.errors ?? []) {
      if (e.keyword === 'additionalProperties') {
        const name = (e.params as { additionalProperty: string }).additionalProperty;
        const at = `${e.instancePath}/${name}`;
        const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
        problems.push(`${path}:${lineOf(doc.contents, at, counter)}: ${at}: ${unknownKey(name, known, 'field')}`);
      } else {
        problems.push(`${path}:${lineOf(doc.contents, e.instancePath, counter)}: ${e.instancePath || '(file)'}: ${e.message ?? 'invalid'}; got ${JSON.stringify(e.data)}`);
      }
    }
  }
  const keys = new Set(interpretations().map((i) => i.key).filter(Boolean));
  const declared = (raw as { declared?: Record<string, unknown> }).declared ?? {};
  for (const key of Object.keys(declared)) {
    if (!keys.has(key)) {
      problems.push(`${path}:${lineOf(doc.contents, `/declared/${key}`, counter)}: /declared/${key}: ${unknownKey(key, [...keys].filter((k): k is string => !!k), 'key')}`);
    }
  }
  if (problems.length) throw new UsageError(`bad config file:\n${problems.join('\n')}`);
  return expandEnv(raw, env, path) as Record<string, unknown>;
}

/** Builds the profile with flags > env > file > defaults. */
export function loadProfile(flags: ProfileFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Profile {
  const profile = defaults();
  const file = flags.config ?? DEFAULT_CONFIG_FILES.map((f) => resolvePath(cwd, f)).find((f) => existsSync(f));
  if (file) {
    const c = readConfigFile(resolvePath(cwd, file), env) as {
      baseUrl?: string; tokenUrl?: string; credentials?: { clientId?: string; clientSecret?: string };
      declared?: ProfileDeclared; fixtures?: Profile['fixtures']; http?: Partial<Profile['http']>; seed?: number; allowIrreversible?: boolean;
      atsJobOfferIdSource?: AtsJobOfferIdSource;
    };
    profile.source = file;
    Object.assign(profile, {
      ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
      ...(c.tokenUrl ? { tokenUrl: c.tokenUrl } : {}),
      ...(c.credentials?.clientId ? { clientId: c.credentials.clientId } : {}),
      ...(c.credentials?.clientSecret ? { clientSecret: c.credentials.clientSecret } : {}),
      declared: c.declared ?? {},
      fixtures: c.fixtures ?? {},
      ...(c.atsJobOfferIdSource ? { atsJobOfferIdSource: c.atsJobOfferIdSource } : {}),
      ...(c.seed !== undefined ? { seed: c.seed } : {}),
      ...(c.allowIrreversible !== undefined ? { allowIrreversible: c.allowIrreversible } : {}),
    });
    profile.http = { ...profile.http, ...(c.http ?? {}) };
  }
  if (env['RDX_BASE_URL']) profile.baseUrl = env['RDX_BASE_URL'];
  if (env['RDX_CLIENT_ID']) profile.clientId = env['RDX_CLIENT_ID'];
  if (env['RDX_CLIENT_SECRET']) profile.clientSecret = env['RDX_CLIENT_SECRET'];
  if (flags.baseUrl !== undefined) profile.baseUrl = flags.baseUrl;
  if (flags.tokenUrl !== undefined) profile.tokenUrl = flags.tokenUrl;
  if (flags.clientId !== undefined) profile.clientId = flags.clientId;
  if (flags.clientSecret !== undefined) profile.clientSecret = flags.clientSecret;
  if (flags.timeout !== undefined) profile.http.timeoutMs = flags.timeout;
  if (flags.retries !== undefined) profile.http.retries = flags.retries;
  if (flags.insecure !== undefined) profile.http.insecure = flags.insecure;
  if (flags.ca !== undefined) profile.http.ca = flags.ca;
  if (flags.proxy !== undefined) profile.http.proxy = flags.proxy;
  if (flags.seed !== undefined) profile.seed = flags.seed;
  if (flags.allowIrreversible !== undefined) profile.allowIrreversible = flags.allowIrreversible;
  if (profile.baseUrl !== undefined) {
    try {
      const url = new URL(profile.baseUrl);
      if (!/^https?:$/.test(url.protocol)) throw new Error('not http(s)');
    } catch {
      throw new UsageError(`base URL ${JSON.stringify(profile.baseUrl)} is not an http(s) URL`);
    }
  }
  return profile;
}

/** A declared value, typed by the caller; undefined when the vendor declared nothing. */
export function declaredValue<T>(profile: Profile, key: string): T | undefined {
  return profile.declared[key] as T | undefined;
}

export const expiresInUnit = (profile: Profile): ExpiresInUnit => declaredValue<ExpiresInUnit>(profile, 'expiresInUnit') ?? 'seconds';

/** The profile as it may appear in a report: secrets replaced by where they came from. */
export function redactedProfile(profile: Profile): Record<string, unknown> {
  return {
    ...profile,
    clientSecret: profile.clientSecret ? '***' : undefined,
    fixtures: { ...profile.fixtures, ...(profile.fixtures.expiredToken ? { expiredToken: '***' } : {}) },
  };
}
