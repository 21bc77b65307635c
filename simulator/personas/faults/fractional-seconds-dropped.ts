import { resourceInfo } from '../../../src/spec/index.js';
import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** The fraction of a date-time's seconds, with the zone after it kept: `2026-03-01T09:00:00.250Z` → `.250`. */
const FRACTION = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2})\.\d+(.*)$/;

export const fractionalSecondsDropped: Persona = {
  name: 'fractional-seconds-dropped',
  kind: 'fault',
  forExploration: true,
  description: 'Date-times are stored in a DATETIME column without fractional seconds: 09:00:00.250Z is accepted and read back as 09:00:00Z, another instant.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    beforeHandler(ctx) {
      if (!ctx.operation || !kindIs(ctx, 'batchCreate', 'replace', 'patch')) return;
      const dates = resourceInfo(ctx.operation.resource).fields.filter((f) => f.format !== undefined).map((f) => f.name);
      for (const item of Array.isArray(ctx.body) ? (ctx.body as unknown[]) : [ctx.body]) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
        const fields = item as JsonObject;
        for (const name of dates) {
          const value = fields[name];
          if (typeof value === 'string') fields[name] = value.replace(FRACTION, '$1$2');
        }
      }
    },
  },
};
