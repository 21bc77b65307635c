import { dataRecords, isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const createdWithoutIds: Persona = {
  name: 'created-without-ids',
  kind: 'fault',
  description: 'Created application steps, jobboard activities and jobboard job offers are listed in data without their id.',
  breaks: ['RECORD.CREATED_IDS'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'batchCreate') || !isSuccess(res)) return;
      for (const record of dataRecords(res)) delete record['id'];
    },
  },
};
