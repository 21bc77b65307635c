import { kindIs, rewriteNextLinkQuery } from '../support.js';
import type { Persona, RequestContext } from '../types.js';

/** The filter's query keys the simulator reads (repeat and brackets, interpretation REFERENCE_LIST_ENCODING). */
const KEYS: Readonly<Record<string, string[]>> = {
  listJobOffers: ['reference', 'reference[]'],
  listJobboardActivities: ['job_offer_reference', 'job_offer_reference[]'],
};

/** The filters as the client sent them, so next_link carries those and not the widened ones. */
const sent = new WeakMap<RequestContext, [string, string[]][]>();

/** Every stored reference the filter may name: ATS job offers' own, or those activities carry. */
function storedReferences(ctx: RequestContext): string[] {
  return ctx.operation?.operationId === 'listJobOffers'
    ? ctx.store.jobOffers.values().map((o) => o.reference)
    : ctx.store.jobboardActivities.values().map((a) => a.job_offer_reference);
}

export const caseInsensitiveReferences: Persona = {
  name: 'case-insensitive-references',
  kind: 'variant',
  description: 'Reference filters compare references without regard to letter case (a case-insensitive collation): a filter on Ref-a also returns the records of REF-A.',
  interprets: ['REFERENCE_FILTER_CASE'],
  declared: { referenceFilterCase: 'case-insensitive' },
  hooks: {
    beforeHandler(ctx) {
      const keys = KEYS[ctx.operation?.operationId ?? ''];
      if (!kindIs(ctx, 'list') || !keys || !keys.some((k) => ctx.query.has(k))) return;
      const folded = new Map<string, string[]>();
      for (const reference of storedReferences(ctx)) {
        const key = reference.toLowerCase();
        folded.set(key, [...(folded.get(key) ?? []), reference]);
      }
      const originals: [string, string[]][] = [];
      for (const key of keys) {
        const values = ctx.query.getAll(key);
        if (values.length === 0) continue;
        originals.push([key, values]);
        ctx.query.delete(key);
        const widened = new Set(values.flatMap((v) => [v, ...(folded.get(v.toLowerCase()) ?? [])]));
        for (const value of widened) ctx.query.append(key, value);
      }
      sent.set(ctx, originals);
    },
    afterHandler(ctx, res) {
      const originals = sent.get(ctx);
      if (!originals) return;
      rewriteNextLinkQuery(ctx, res, (query) => {
        for (const [key, values] of originals) {
          query.delete(key);
          for (const value of values) query.append(key, value);
        }
      });
    },
  },
};
