import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const attributeValueOptional: Persona = {
  name: 'attribute-value-optional',
  kind: 'fault',
  description: 'An attribute update without value is accepted and sets the value to "".',
  breaks: ['REQUEST.ATTRIBUTE_VALUE_REQUIRED'],
  hooks: {
    beforeValidation(ctx) {
      const body = ctx.body;
      if (kindIs(ctx, 'attributeUpdate') && typeof body === 'object' && body !== null && !Array.isArray(body) && !('value' in body)) {
        (body as Record<string, unknown>)['value'] = '';
      }
    },
  },
};
