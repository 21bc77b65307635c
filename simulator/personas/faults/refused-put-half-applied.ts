import { resourceInfo } from '../../../src/spec/index.js';
import { kindIs, storeRecord, storedRecord } from '../support.js';
import type { Persona } from '../types.js';

function typeOf(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

export const refusedPutHalfApplied: Persona = {
  name: 'refused-put-half-applied',
  kind: 'fault',
  description: 'A PUT refused for a missing or wrongly typed field is answered 400, but the well-typed fields it carried are stored.',
  breaks: ['REQUEST.REFUSED_CHANGES_NOTHING'],
  hooks: {
    afterHandler(ctx, res) {
      const body = ctx.body;
      if (!kindIs(ctx, 'replace') || res.outcome !== 'validation' || !ctx.operation) return;
      const current = storedRecord(ctx);
      if (!current || typeof body !== 'object' || body === null || Array.isArray(body)) return;
      // Only fields of their declared type, so the half-applied record still reads back as a valid record.
      const fields = resourceInfo(ctx.operation.resource).fields;
      const applied = Object.entries(body).filter(([name, value]) => fields.find((f) => f.name === name)?.types.includes(typeOf(value)));
      storeRecord(ctx, { ...current, ...Object.fromEntries(applied) });
    },
  },
};
