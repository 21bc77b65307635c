import { isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const putNotPersisted: Persona = {
  name: 'put-not-persisted',
  kind: 'fault',
  description: 'PUT answers with the replaced record but does not keep it: a later read shows the old one.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'replace') && isSuccess(res)) ctx.rollback();
    },
  },
};
