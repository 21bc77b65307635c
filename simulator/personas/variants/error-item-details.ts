import type { Persona } from '../types.js';

export const errorItemDetails: Persona = {
  name: 'error-item-details',
  kind: 'variant',
  description: 'errors[].data carries an object ({"problem": "…"}) instead of null; the spec shows only that data is there.',
  interprets: ['ERROR_ITEM_DATA'],
  hooks: {
    afterHandler(_ctx, res) {
      const errors = res.body['errors'];
      if (!Array.isArray(errors)) return;
      for (const item of errors as { message?: unknown; data?: unknown }[]) item.data = { problem: item.message };
    },
  },
};
