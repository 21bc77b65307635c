import { kindIs, rewriteNextLinkQuery } from '../support.js';
import type { Persona } from '../types.js';

const LIST_FILTERS = ['reference', 'job_offer_reference'];

export const commaReferenceLists: Persona = {
  name: 'comma-reference-lists',
  kind: 'variant',
  description: 'Several references are read only as one comma-separated value (reference=a,b); a repeated key keeps its last value, and reference[] is an unknown parameter, ignored.',
  interprets: ['REFERENCE_LIST_ENCODING'],
  declared: { referenceListEncoding: 'comma' },
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'list')) return;
      for (const name of LIST_FILTERS) {
        ctx.query.delete(`${name}[]`);
        const last = ctx.query.getAll(name).pop();
        ctx.query.delete(name);
        for (const value of last?.split(',') ?? []) if (value !== '') ctx.query.append(name, value);
      }
    },
    // The handler links the next page with the query as it read it: written back the way this variant reads it.
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'list')) return;
      rewriteNextLinkQuery(ctx, res, (query) => {
        for (const name of LIST_FILTERS) {
          const values = query.getAll(name);
          query.delete(name);
          if (values.length > 0) query.append(name, values.join(','));
        }
      });
    },
  },
};
