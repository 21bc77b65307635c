import type { Store } from '../../store.js';
import { dataRecords, isSuccess } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** How long a read of an application step is served from the cache. */
const TTL_MS = 1_000;
const MAX_CACHED = 10_000;

interface Entry {
  record: JsonObject;
  at: number;
  /** The cache tag the entry was filed under: application:<application_ats_id>. */
  application: unknown;
}

/** Per simulator: step id → the step as a GET last read it. */
const caches = new WeakMap<Store, Map<string, Entry>>();

function cacheOf(store: Store): Map<string, Entry> {
  let cache = caches.get(store);
  if (!cache) {
    cache = new Map();
    caches.set(store, cache);
  }
  return cache;
}

export const stepCacheStaleAfterMove: Persona = {
  name: 'step-cache-stale-after-move',
  kind: 'fault',
  forExploration: true,
  description: 'GET /ats/application-steps/{id} is cached for a second under a tag of its application_ats_id, and a PUT busts the tag of the application_ats_id it sends: a PUT that moves a step to another application is read back as it was before.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      const operation = ctx.operation?.operationId;
      if (!isSuccess(res)) return;
      const cache = cacheOf(ctx.store);
      const id = ctx.params['id'] ?? '';
      const now = ctx.options.now();
      if (operation === 'getApplicationStep') {
        const hit = cache.get(id);
        if (hit && now - hit.at < TTL_MS) {
          res.body['data'] = [{ ...hit.record }];
          return;
        }
        const record = dataRecords(res)[0];
        if (!record) return;
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
        cache.set(id, { record: { ...record }, at: now, application: record['application_ats_id'] });
      } else if (operation === 'patchApplicationStep') {
        cache.delete(id);
      } else if (operation === 'replaceApplicationStep') {
        // The bug: the tag busted is the one of the body sent, not the one the step was cached under.
        const sent = (ctx.body as JsonObject)['application_ats_id'];
        for (const [key, entry] of cache) if (entry.application === sent) cache.delete(key);
      }
    },
  },
};
