import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

const REFERENCE_FILTERS = ['reference', 'reference[]', 'job_offer_reference', 'job_offer_reference[]'];

export const onlyFirstReference: Persona = {
  name: 'only-first-reference',
  kind: 'fault',
  description: 'Of several references in a list filter only the first is applied; the others are ignored.',
  breaks: ['FILTER.SEVERAL_REFERENCES'],
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'list')) return;
      for (const name of REFERENCE_FILTERS) {
        const [first] = ctx.query.getAll(name);
        if (first !== undefined) ctx.query.set(name, first);
      }
    },
  },
};
