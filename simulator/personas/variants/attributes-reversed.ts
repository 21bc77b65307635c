import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

export const attributesReversed: Persona = {
  name: 'attributes-reversed',
  kind: 'variant',
  description: 'A job offer\'s attributes come back newest first, not in the order they were written (no order is specified).',
  interprets: [],
  hooks: {
    afterHandler(_ctx, res) {
      for (const record of dataRecords(res)) {
        const attributes = record['attributes'];
        if (Array.isArray(attributes)) attributes.reverse();
      }
    },
  },
};
