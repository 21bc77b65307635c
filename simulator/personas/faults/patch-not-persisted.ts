import { isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const patchNotPersisted: Persona = {
  name: 'patch-not-persisted',
  kind: 'fault',
  description: 'PATCH (of a record or an attribute) answers with the change but does not keep it.',
  breaks: ['WRITE.PATCH_PARTIAL'],
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'patch', 'attributeUpdate') && isSuccess(res)) ctx.rollback();
    },
  },
};
