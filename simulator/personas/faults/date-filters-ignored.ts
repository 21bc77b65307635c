import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

const DATE_FILTERS = ['min_publication_date', 'max_publication_date', 'min_date', 'max_date'];

export const dateFiltersIgnored: Persona = {
  name: 'date-filters-ignored',
  kind: 'fault',
  description: 'The lists accept the min/max date filters but do not apply them.',
  breaks: ['FILTER.DATE_BOUNDS'],
  hooks: {
    beforeHandler(ctx) {
      if (kindIs(ctx, 'list')) for (const name of DATE_FILTERS) ctx.query.delete(name);
    },
  },
};
