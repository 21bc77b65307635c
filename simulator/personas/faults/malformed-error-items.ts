import type { Persona } from '../types.js';

export const malformedErrorItems: Persona = {
  name: 'malformed-error-items',
  kind: 'fault',
  description: 'Error items are bare strings ("errors": ["title is required"]) instead of {message, data} objects.',
  breaks: ['ENVELOPE.ERROR_ITEM'],
  hooks: {
    afterHandler(_ctx, res) {
      const errors = res.body['errors'];
      if (!Array.isArray(errors)) return;
      res.body['errors'] = errors.map((item: unknown) => {
        const message = typeof item === 'object' && item !== null ? (item as { message?: unknown }).message : item;
        return String(message);
      });
    },
  },
};
