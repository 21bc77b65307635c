import { pagedByNumber } from '../paged-by-number.js';
import type { Persona } from '../types.js';

export const newestFirst: Persona = {
  name: 'newest-first',
  kind: 'variant',
  description: 'Lists run newest first and are paged by page number (?page=2), not by a cursor in creation order.',
  interprets: ['SORT_ORDER', 'NEXT_LINK_FORM'],
  hooks: {
    beforeHandler(ctx) {
      return pagedByNumber(ctx, (records) => records.reverse());
    },
  },
};
