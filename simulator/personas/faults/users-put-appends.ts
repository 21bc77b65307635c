import type { UserRecord } from '../../store.js';
import { dataRecords, isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const usersPutAppends: Persona = {
  name: 'users-put-appends',
  kind: 'fault',
  description: 'PUT /users inserts the users it is sent after those it holds, whether they are there already or not, so the same array sent twice lists each of its users twice.',
  breaks: ['WRITE.USERS_REPLACE'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'usersReplace') || !isSuccess(res)) return;
      const sent = dataRecords(res) as unknown as UserRecord[];
      ctx.rollback();
      const all = [...ctx.store.users, ...sent];
      ctx.store.replaceUsers(all);
      res.body['data'] = [all];
    },
  },
};
