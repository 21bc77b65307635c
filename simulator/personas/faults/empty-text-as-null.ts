import { resourceInfo } from '../../../src/spec/index.js';
import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

export const emptyTextAsNull: Persona = {
  name: 'empty-text-as-null',
  kind: 'fault',
  forExploration: true,
  description: 'Text is stored where an empty string is NULL (as in Oracle): an optional field created or replaced with "" is accepted and read back absent.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    beforeHandler(ctx) {
      if (!ctx.operation || !kindIs(ctx, 'batchCreate', 'replace')) return;
      const info = resourceInfo(ctx.operation.resource);
      const optional = info.fields.filter((f) => !info.required.includes(f.name)).map((f) => f.name);
      for (const item of Array.isArray(ctx.body) ? (ctx.body as unknown[]) : [ctx.body]) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
        const fields = item as JsonObject;
        for (const name of optional) if (fields[name] === '') delete fields[name];
      }
    },
  },
};
