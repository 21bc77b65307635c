import { resourceInfo } from '../../../src/spec/index.js';
import { dataRecords, isSuccess, kindIs, storeRecord } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

export const patchClearsUnspecified: Persona = {
  name: 'patch-clears-unspecified',
  kind: 'fault',
  description: 'PATCH works like a PUT of the fields sent: every optional field it does not carry is cleared.',
  breaks: ['WRITE.PATCH_PARTIAL'],
  hooks: {
    afterHandler(ctx, res) {
      const [patched] = dataRecords(res);
      if (!kindIs(ctx, 'patch') || !isSuccess(res) || !patched || !ctx.operation) return;
      const keep = new Set(['id', ...resourceInfo(ctx.operation.resource).required, ...Object.keys(ctx.body as object)]);
      const cleared: JsonObject = Object.fromEntries(Object.entries(patched).filter(([name]) => keep.has(name)));
      if (storeRecord(ctx, cleared)) res.body['data'] = [cleared];
    },
  },
};
