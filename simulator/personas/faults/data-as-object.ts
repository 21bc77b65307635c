import { isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const dataAsObject: Persona = {
  name: 'data-as-object',
  kind: 'fault',
  description: 'Single-record operations (GET, PUT, PATCH of one record) answer data as the record itself, not an array of one.',
  breaks: ['ENVELOPE.DATA_IS_ARRAY'],
  hooks: {
    afterHandler(ctx, res) {
      const data = res.body['data'];
      if (kindIs(ctx, 'get', 'replace', 'patch', 'attributeUpdate') && isSuccess(res) && Array.isArray(data) && data.length === 1) {
        res.body['data'] = data[0];
      }
    },
  },
};
