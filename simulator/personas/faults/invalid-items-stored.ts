import { resourceInfo } from '../../../src/spec/index.js';
import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** Makes the filled-in references unique within a process, so two of them never collide on a unique key. */
let filled = 0;

function standIn(type: string | undefined, format: string | undefined, now: number): unknown {
  if (type === 'number') return 0;
  if (format === 'date') return new Date(now).toISOString().slice(0, 10);
  if (format === 'date-time') return new Date(now).toISOString();
  filled = (filled + 1) % Number.MAX_SAFE_INTEGER;
  return `unknown-${filled}`;
}

export const invalidItemsStored: Persona = {
  name: 'invalid-items-stored',
  kind: 'fault',
  description: 'A batch item missing a required field is created anyway, the field filled with a stand-in (0, today, "unknown-…").',
  breaks: ['REQUEST.REQUIRED_ON_CREATE'],
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'batchCreate') || !Array.isArray(ctx.body) || !ctx.operation) return;
      const info = resourceInfo(ctx.operation.resource);
      for (const item of ctx.body as unknown[]) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
        const fields = item as JsonObject;
        for (const name of info.required) {
          if (fields[name] !== undefined) continue;
          const field = info.fields.find((f) => f.name === name);
          fields[name] = standIn(field?.types.find((t) => t !== 'null'), field?.format, ctx.options.now());
        }
      }
    },
  },
};
