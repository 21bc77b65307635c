import { HANDLERS } from '../../handlers/index.js';
import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

const FILTERS: Readonly<Record<string, string>> = { listJobOffers: 'reference', listJobboardActivities: 'job_offer_reference' };
/** The list is gathered whole, then filtered: bounded like any page of the simulator's own. */
const MAX_RECORDS = 100_000;

export const referencePrefixMatch: Persona = {
  name: 'reference-prefix-match',
  kind: 'fault',
  description: 'A one-reference filter matches by prefix (LIKE \'ref%\'): filtering on JO-1 also returns JO-12 and JO-1-B.',
  breaks: ['FILTER.REFERENCE'],
  hooks: {
    beforeHandler(ctx) {
      const field = FILTERS[ctx.operation?.operationId ?? ''];
      const wanted = field === undefined ? [] : ctx.query.getAll(field);
      const handler = HANDLERS[ctx.operation?.operationId ?? ''];
      if (field === undefined || wanted.length !== 1 || ctx.query.has('cursor') || !handler) return;
      const rest = new URLSearchParams(ctx.query);
      rest.delete(field);
      const all = handler({ ...ctx, query: rest, options: { ...ctx.options, pageSize: MAX_RECORDS } });
      const prefix = wanted[0] as string;
      all.body['data'] = dataRecords(all).filter((r) => String(r[field]).startsWith(prefix));
      all.body['meta'] = { next_link: null };
      return all;
    },
  },
};
