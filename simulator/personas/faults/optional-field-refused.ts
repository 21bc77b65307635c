import { errorReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

/** The third reference of each resource: documented, Required: no. */
const REFUSED = ['reference_3', 'job_offer_reference_3'];

const carries = (item: unknown): boolean => typeof item === 'object' && item !== null &&
  REFUSED.some((field) => (item as Record<string, unknown>)[field] !== undefined && (item as Record<string, unknown>)[field] !== null);

export const optionalFieldRefused: Persona = {
  name: 'optional-field-refused',
  kind: 'fault',
  description: 'A create item, PUT or PATCH that carries the documented optional third reference (reference_3, job_offer_reference_3) is refused with 400.',
  breaks: ['REQUEST.OPTIONAL_FIELDS_ACCEPTED'],
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'batchCreate', 'replace', 'patch')) return;
      const items = Array.isArray(ctx.body) ? ctx.body : [ctx.body];
      if (items.some(carries)) return errorReply('validation', 'Unknown field: the third reference is not supported.', ['reference_3 is not allowed']);
    },
  },
};
