import { isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const usersFlatData: Persona = {
  name: 'users-flat-data',
  kind: 'fault',
  description: 'PUT /users answers data as a flat array of users, not the array of arrays the spec shows.',
  breaks: ['RECORD.USERS_NESTED'],
  hooks: {
    afterHandler(ctx, res) {
      const data = res.body['data'];
      if (kindIs(ctx, 'usersReplace') && isSuccess(res) && Array.isArray(data)) res.body['data'] = data.flat();
    },
  },
};
