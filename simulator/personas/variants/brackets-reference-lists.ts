import { errorReply } from '../../envelope.js';
import type { Persona } from '../types.js';

const LIST_FILTERS = ['reference', 'job_offer_reference'];

export const bracketsReferenceLists: Persona = {
  name: 'brackets-reference-lists',
  kind: 'variant',
  description: 'Several references are read only as reference[]=a&reference[]=b; a repeated plain reference=a&reference=b is refused with 400.',
  interprets: ['REFERENCE_LIST_ENCODING'],
  declared: { referenceListEncoding: 'brackets' },
  hooks: {
    beforeHandler(ctx) {
      if (ctx.operation?.kind !== 'list') return;
      const repeated = LIST_FILTERS.filter((name) => ctx.query.getAll(name).length > 1);
      if (repeated.length > 0) return errorReply('validation', `Give several values as ${repeated[0]}[]=…, not by repeating ${repeated[0]}.`);
    },
  },
};
