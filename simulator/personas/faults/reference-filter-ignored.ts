import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

const REFERENCE_FILTERS = ['reference', 'reference[]', 'job_offer_reference', 'job_offer_reference[]'];

export const referenceFilterIgnored: Persona = {
  name: 'reference-filter-ignored',
  kind: 'fault',
  description: 'The lists ignore the reference and job_offer_reference filters and return every record.',
  breaks: ['FILTER.REFERENCE'],
  hooks: {
    beforeHandler(ctx) {
      if (kindIs(ctx, 'list')) for (const name of REFERENCE_FILTERS) ctx.query.delete(name);
    },
  },
};
