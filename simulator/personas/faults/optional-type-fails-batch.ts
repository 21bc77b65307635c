import { resourceInfo } from '../../../src/spec/index.js';
import { errorReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** The JSON type of a value as a schema names it. */
function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return value === null ? 'null' : typeof value;
}

export const optionalTypeFailsBatch: Persona = {
  name: 'optional-type-fails-batch',
  kind: 'fault',
  forExploration: true,
  description: 'A batch item whose only fault is an optional text field of another type (subsidiary: 42) fails the insert of the whole batch: the valid items are not stored and the answer is an error body, not a partial success.',
  breaks: ['BATCH.PARTIAL_SUCCESS'],
  hooks: {
    beforeHandler(ctx) {
      if (!ctx.operation || !kindIs(ctx, 'batchCreate') || !Array.isArray(ctx.body)) return;
      const info = resourceInfo(ctx.operation.resource);
      // Required fields are checked item by item; the optional ones only when the batch's rows are bound, all at once.
      const optional = info.fields.filter((f) => !f.union && !info.required.includes(f.name) && f.types.includes('string'));
      for (const [index, item] of (ctx.body as unknown[]).entries()) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
        const fields = item as JsonObject;
        const wrong = optional.find((f) => fields[f.name] !== undefined && fields[f.name] !== null && !f.types.includes(typeOf(fields[f.name])) &&
          !(typeOf(fields[f.name]) === 'integer' && f.types.includes('number')));
        if (wrong) return errorReply('validation', 'The batch could not be stored.', [`item ${index}: ${wrong.name} could not be bound as ${wrong.types.join(' or ')}`]);
      }
    },
  },
};
