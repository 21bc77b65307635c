import { dataRecords, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const batchIdsRepeated: Persona = {
  name: 'batch-ids-repeated',
  kind: 'fault',
  description: 'Every record of a batch-create answer carries the id of the first item, so the ids of the others name the wrong record.',
  breaks: ['RECORD.CREATED_IDS'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'batchCreate')) return;
      const records = dataRecords(res);
      const first = records[0]?.['id'];
      if (first === undefined) return;
      for (const record of records) record['id'] = first;
    },
  },
};
