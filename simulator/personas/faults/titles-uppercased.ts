import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

const TITLES = ['title', 'job_offer_title'];

function shout(item: unknown): void {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
  const fields = item as JsonObject;
  for (const name of TITLES) {
    const value = fields[name];
    if (typeof value === 'string') fields[name] = value.toUpperCase();
  }
}

export const titlesUppercased: Persona = {
  name: 'titles-uppercased',
  kind: 'fault',
  description: 'Stored values are altered: every title and job_offer_title written is stored (and read back) in upper case.',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    beforeHandler(ctx) {
      if (kindIs(ctx, 'batchCreate') && Array.isArray(ctx.body)) (ctx.body as unknown[]).forEach(shout);
      if (kindIs(ctx, 'replace', 'patch')) shout(ctx.body);
    },
  },
};
