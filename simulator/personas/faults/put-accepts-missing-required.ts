import { resourceInfo } from '../../../src/spec/index.js';
import { kindIs, storedRecord } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

export const putAcceptsMissingRequired: Persona = {
  name: 'put-accepts-missing-required',
  kind: 'fault',
  description: 'A PUT that leaves out a required field is accepted; the stored value of that field is kept.',
  breaks: ['REQUEST.REQUIRED_ON_PUT'],
  hooks: {
    beforeValidation(ctx) {
      const body = ctx.body;
      if (!kindIs(ctx, 'replace') || !ctx.operation || typeof body !== 'object' || body === null || Array.isArray(body)) return;
      const current = storedRecord(ctx);
      if (!current) return;
      const fields = body as JsonObject;
      for (const name of resourceInfo(ctx.operation.resource).required) {
        if (fields[name] === undefined && current[name] !== undefined) fields[name] = current[name];
      }
    },
  },
};
