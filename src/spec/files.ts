// Where spec/ is and how its files are read: the parsed-YAML cache, the schema files, the hash of the whole folder.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from './cache-dir.js';

// yaml is loaded when first needed (CommonJS): with ajv it was half a second of the simulator's start-up, which
// needs neither when the parsed registers are cached (see readYaml).
const require = createRequire(import.meta.url);

/** The package root: the nearest folder above this module holding package.json (works from src/ and dist/). */
export const packageRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('rdx: cannot find the package root (no package.json above the module)');
    dir = up;
  }
  return dir;
})();

export const specDir = join(packageRoot, 'spec');

/** Parsed spec files as JSON, named by the SHA-256 of the YAML text they came from: a changed file is parsed anew. */
const YAML_CACHE = cacheDir('spec');

export function readYaml(file: string): unknown {
  const text = readFileSync(join(specDir, file), 'utf8');
  const hash = createHash('sha256').update(text).digest('hex');
  const cached = YAML_CACHE === undefined ? undefined : join(YAML_CACHE, `${file}-${hash.slice(0, 16)}.json`);
  try {
    const entry = JSON.parse(readFileSync(cached ?? '', 'utf8')) as { sha256?: unknown; value?: unknown };
    if (entry.sha256 === hash) return entry.value;
  } catch {
    // No cache yet, or an unreadable one: parse the YAML.
  }
  const { parse } = require('yaml') as typeof import('yaml');
  const value: unknown = parse(text);
  if (YAML_CACHE === undefined || cached === undefined) return value;
  try {
    // Best effort (the package may be read-only), and atomic, so that a concurrent reader never sees half a file.
    mkdirSync(YAML_CACHE, { recursive: true });
    const temp = `${cached}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ sha256: hash, value }));
    renameSync(temp, cached);
  } catch {
    // Parsing each time is only slower.
  }
  return value;
}

export function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`rdx: ${where} is not a mapping`);
  }
  return value as Record<string, unknown>;
}

export function schemaFiles(): string[] {
  return readdirSync(join(specDir, 'schemas')).filter((f) => f.endsWith('.json')).sort();
}

const schemaCache = new Map<string, Record<string, unknown>>();
export function loadSchema(file: string): Record<string, unknown> {
  let schema = schemaCache.get(file);
  if (!schema) {
    schema = asRecord(JSON.parse(readFileSync(join(specDir, 'schemas', file), 'utf8')), `spec/schemas/${file}`);
    schemaCache.set(file, schema);
  }
  return schema;
}

/** SHA-256 over every file of spec/ in name order: identifies the spec a report was judged against. */
export function specHash(): string {
  const hash = createHash('sha256');
  const files = ['clauses.yaml', 'interpretations.yaml', 'openapi.yaml', ...schemaFiles().map((f) => `schemas/${f}`)];
  for (const f of files) {
    const path = join(specDir, f);
    if (!existsSync(path)) continue;
    hash.update(f).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}
