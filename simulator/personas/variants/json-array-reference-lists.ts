import { errorReply } from '../../envelope.js';
import { kindIs, rewriteNextLinkQuery } from '../support.js';
import type { Persona } from '../types.js';

const LIST_FILTERS = ['reference', 'job_offer_reference'];

/** The references of a JSON array of strings, or undefined when the text is no such array (a plain reference). */
function jsonList(text: string): string[] | undefined {
  if (!text.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((v) => typeof v === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export const jsonArrayReferenceLists: Persona = {
  name: 'json-array-reference-lists',
  kind: 'variant',
  description: 'Several references are read only as a JSON array (reference=["a","b"]); a repeated key or reference[] is refused with 400.',
  interprets: ['REFERENCE_LIST_ENCODING'],
  declared: { referenceListEncoding: 'json' },
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'list')) return;
      for (const name of LIST_FILTERS) {
        if (ctx.query.has(`${name}[]`) || ctx.query.getAll(name).length > 1) {
          return errorReply('validation', `Give several values of ${name} as one JSON array, e.g. ${name}=["a","b"].`);
        }
        const value = ctx.query.get(name);
        const list = value === null ? undefined : jsonList(value);
        if (!list) continue;
        ctx.query.delete(name);
        for (const v of list) ctx.query.append(name, v);
      }
    },
    // The handler links the next page with the query as it read it: written back the way this variant reads it.
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'list')) return;
      rewriteNextLinkQuery(ctx, res, (query) => {
        for (const name of LIST_FILTERS) {
          const values = query.getAll(name);
          query.delete(name);
          if (values.length > 0) query.append(name, JSON.stringify(values));
        }
      });
    },
  },
};
