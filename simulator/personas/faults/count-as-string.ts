import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

export const countAsString: Persona = {
  name: 'count-as-string',
  kind: 'fault',
  description: 'Jobboard activities in responses carry count as a string ("12"), not the number the spec declares.',
  breaks: ['RECORD.SCHEMA'],
  hooks: {
    afterHandler(_ctx, res) {
      for (const record of dataRecords(res)) if (typeof record['count'] === 'number') record['count'] = String(record['count']);
    },
  },
};
