import type { Store } from '../../store.js';
import { dataRecords, isSuccess } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** Per simulator: reference → the job offer as the list first served it (a cache no write invalidates). */
const cached = new WeakMap<Store, Map<string, JsonObject>>();
const MAX_CACHED = 50_000;

export const jobOfferListStale: Persona = {
  name: 'job-offer-list-stale',
  kind: 'fault',
  description: 'GET /ats/job-offers serves each job offer as it was when first listed: later PUTs and PATCHes never show in the list.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId !== 'listJobOffers' || !isSuccess(res) || !Array.isArray(res.body['data'])) return;
      let cache = cached.get(ctx.store);
      if (!cache) {
        cache = new Map();
        cached.set(ctx.store, cache);
      }
      const served = dataRecords(res).map((record) => {
        const key = String(record['reference']);
        const hit = cache.get(key);
        if (hit) return hit;
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
        cache.set(key, record);
        return record;
      });
      res.body['data'] = served;
    },
  },
};
