import { dataRecords, isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const attributeUpdateEchoesName: Persona = {
  name: 'attribute-update-echoes-name',
  kind: 'fault',
  description: 'The single-attribute update answers items with name and value, where the spec says they carry only value.',
  breaks: ['RECORD.ATTRIBUTE_VALUE_ONLY'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'attributeUpdate') || !isSuccess(res)) return;
      const name = ctx.params['name'];
      for (const record of dataRecords(res)) Object.assign(record, { name, ...record });
    },
  },
};
