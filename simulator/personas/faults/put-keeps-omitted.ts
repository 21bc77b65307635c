import { kindIs, storedRecord } from '../support.js';
import type { Persona } from '../types.js';

export const putKeepsOmitted: Persona = {
  name: 'put-keeps-omitted',
  kind: 'fault',
  description: 'PUT merges like a PATCH: an optional field left out of the body keeps its stored value.',
  breaks: ['WRITE.PUT_CLEARS_OMITTED'],
  hooks: {
    beforeHandler(ctx) {
      const current = storedRecord(ctx);
      if (!kindIs(ctx, 'replace') || !current || typeof ctx.body !== 'object' || ctx.body === null) return;
      delete current['id'];
      ctx.body = { ...current, ...ctx.body };
    },
  },
};
