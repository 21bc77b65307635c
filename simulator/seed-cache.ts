// Seeded data is a pure function of the seed, the volume and the generator's code, so it is kept once made: a
// snapshot per (seed, volume) in the user's cache folder (src/spec/cache-dir.ts), under a hash of the generator's
// compiled files and faker's version. Loading it takes milliseconds where generating takes most of a cold start-up;
// any change to the generator changes the hash, so stale data is never served. Writing is best effort.
// The generator (and faker with it, a sixth of a cold start-up) is loaded only when the data is not kept yet.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SeedCounts } from './seed.js';
import { applySnapshot, parseSnapshot, snapshotText, writeFileAtomic } from './snapshot.js';
import type { Store } from './store.js';
import { cacheDir } from '../src/spec/cache-dir.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CACHE_DIR = cacheDir('seed');
/** Larger volumes are generated each time: their files would be large, and they are rarely started twice. */
export const MAX_CACHED_RECORDS = 20_000;
/** Files kept; the least recently written go first. */
const MAX_FILES = 4;
/** The compiled modules whose code decides the seeded data. */
const GENERATOR = ['seed.js', 'store.js', 'table.js', 'table-parts.js', '../src/data/factories.js', '../src/data/values.js', '../src/data/vocabulary.js'];

let identity: string | undefined;
function generatorIdentity(): string {
  if (identity) return identity;
  const hash = createHash('sha256');
  for (const file of GENERATOR) hash.update(file).update('\0').update(readFileSync(join(HERE, file))).update('\0');
  const faker = createRequire(import.meta.url)('@faker-js/faker/package.json') as { version: string };
  identity = hash.update(faker.version).digest('hex').slice(0, 16);
  return identity;
}

function countsOf(store: Store): SeedCounts {
  const { jobOffers = 0, applicationSteps = 0, jobboardActivities = 0, jobboardJobOffers = 0, users = 0 } = store.counts();
  return { jobOffers, applicationSteps, jobboardActivities, jobboardJobOffers, users };
}

function prune(dir: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { f } of files.slice(MAX_FILES)) rmSync(join(dir, f), { force: true });
}

/** seedStore() with the result kept: the same data, byte for byte, as generating it. */
export async function seedStoreCached(store: Store, seed: number, records: number): Promise<SeedCounts> {
  if (records > MAX_CACHED_RECORDS || CACHE_DIR === undefined) return (await import('./seed.js')).seedStore(store, seed, records);
  let file: string | undefined;
  try {
    file = join(CACHE_DIR, `${generatorIdentity()}-${seed}-${records}.json`);
    const snapshot = parseSnapshot(readFileSync(file, 'utf8'), true);
    if (snapshot.seed === seed && snapshot.records === records) {
      applySnapshot(store, snapshot);
      return countsOf(store);
    }
  } catch {
    // Not cached yet (or unreadable): generate.
  }
  // The store is untouched until the generator has loaded: seeding itself is synchronous, so no request sees it half done.
  const { seedStore } = await import('./seed.js');
  const counts = seedStore(store, seed, records);
  if (file) {
    try {
      mkdirSync(CACHE_DIR, { recursive: true });
      writeFileAtomic(file, snapshotText(store, { seed, records }, 0));
      prune(CACHE_DIR);
    } catch {
      // Generating each time is only slower.
    }
  }
  return counts;
}
