import { HANDLERS } from '../../handlers/index.js';
import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

/** The list is gathered whole, then filtered: bounded like any page of the simulator's own. */
const MAX_RECORDS = 100_000;

export const statusFilterLoose: Persona = {
  name: 'status-filter-loose',
  kind: 'fault',
  description: "GET /jobboard/activities matches status by prefix and without case (ILIKE 'applied%'): filtering on applied also returns applied_late and Applied.",
  breaks: ['FILTER.STATUS'],
  hooks: {
    beforeHandler(ctx) {
      const wanted = ctx.query.get('status');
      const handler = HANDLERS['listJobboardActivities'];
      if (ctx.operation?.operationId !== 'listJobboardActivities' || wanted === null || ctx.query.has('cursor') || !handler) return;
      const rest = new URLSearchParams(ctx.query);
      rest.delete('status');
      const all = handler({ ...ctx, query: rest, options: { ...ctx.options, pageSize: MAX_RECORDS } });
      all.body['data'] = dataRecords(all).filter((r) => String(r['status']).toLowerCase().startsWith(wanted.toLowerCase()));
      all.body['meta'] = { next_link: null };
      return all;
    },
  },
};
