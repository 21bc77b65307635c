// The target profile: flags > environment > config file > defaults. Secrets come from the environment or flags.
import { existsSync, readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LineCounter, parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import { interpretations, packageRoot } from '../spec/index.js';
import { UsageError } from '../errors.js';
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

/** Reads and checks a config file; every problem is reported as file:line: field: message. */
export function readConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`);
  const counter = new LineCounter();
  const doc = parseDocument(readFileSync(path, 'utf8'), { lineCounter: counter });
  if (doc.errors.length) {
    const e = doc.errors[0];
    throw new UsageError(`${path}:${e?.linePos?.[0]?.line ?? 1}: ${e?.message.split('\n')[0]}`);
  }
  const raw = (doc.toJS() ?? {}) as Record<string, unknown>;
  // A section whose entries are all commented out reads as null: treat it as empty.
  for (const [k, v] of Object.entries(raw)) if (v === null) delete raw[k];
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(resolvePath(packageRoot, 'src/config/rdx.config.schema.json'), 'utf8')) as object);
  const problems: string[] = [];
  if (!validate(raw)) {
    for (const e of validate.errors ?? []) {
      const extra = e.keyword === 'additionalProperties' ? `unknown field ${(e.params as { additionalProperty: string }).additionalProperty}` : e.message;
      problems.push(`${path}:${lineOf(doc.contents, e.instancePath, counter)}: ${e.instancePath || '(file)'}: ${extra}`);
    }
  }
  const keys = new Set(interpretations().map((i) => i.key).filter(Boolean));
  const declared = (raw as { declared?: Record<string, unknown> }).declared ?? {};
  for (const key of Object.keys(declared)) {
    if (!keys.has(key)) {
      problems.push(`${path}:${lineOf(doc.contents, `/declared/${key}`, counter)}: /declared/${key}: unknown key (known: ${[...keys].join(', ')})`);
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
