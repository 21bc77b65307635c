import { resourceInfo } from '../../../src/spec/index.js';
import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

const NUMERIC = /^-?\d+(\.\d+)?$/;

export const textNumbersAccepted: Persona = {
  name: 'text-numbers-accepted',
  kind: 'fault',
  description: 'A number field sent as text ("count": "12") is converted and stored instead of refused.',
  breaks: ['REQUEST.BODY_TYPES'],
  hooks: {
    beforeValidation(ctx) {
      if (!ctx.operation || !kindIs(ctx, 'batchCreate', 'replace', 'patch')) return;
      const numbers = resourceInfo(ctx.operation.resource).fields.filter((f) => f.types.includes('number')).map((f) => f.name);
      for (const item of Array.isArray(ctx.body) ? (ctx.body as unknown[]) : [ctx.body]) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
        const fields = item as JsonObject;
        for (const name of numbers) {
          const value = fields[name];
          if (typeof value === 'string' && NUMERIC.test(value)) fields[name] = Number(value);
        }
      }
    },
  },
};
