import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

const LIST_FILTERS = ['reference', 'job_offer_reference'];

export const repeatOnlyReferenceLists: Persona = {
  name: 'repeat-only-reference-lists',
  kind: 'variant',
  description: 'Several references are read only as a repeated key (reference=a&reference=b); reference[] is an unknown parameter and ignored, so that query lists everything.',
  interprets: ['REFERENCE_LIST_ENCODING'],
  declared: { referenceListEncoding: 'repeat' },
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'list')) return;
      for (const name of LIST_FILTERS) ctx.query.delete(`${name}[]`);
    },
  },
};
