import { dataRecords, isSuccess } from '../support.js';
import type { Persona } from '../types.js';

export const patchWithoutId: Persona = {
  name: 'patch-without-id',
  kind: 'variant',
  description: 'The PATCH answer of an application step carries no id, as in the spec\'s sample response.',
  interprets: ['PATCH_RESPONSE_ID'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId !== 'patchApplicationStep' || !isSuccess(res)) return;
      for (const record of dataRecords(res)) delete record['id'];
    },
  },
};
