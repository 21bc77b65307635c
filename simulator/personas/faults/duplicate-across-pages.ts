import type { Store } from '../../store.js';
import { isSuccess, kindIs, nextLinkOf, parseLink } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** Per simulator: page cursor → the last record of the page that issued it. */
const lastOfPage = new WeakMap<Store, Map<string, JsonObject>>();
/** Cursors remembered at most; past it the oldest are forgotten. */
const MAX_REMEMBERED = 5_000;

export const duplicateAcrossPages: Persona = {
  name: 'duplicate-across-pages',
  kind: 'fault',
  description: 'Every page reached through next_link starts again with the last record of the page before.',
  breaks: ['PAGINATION.WALK'],
  hooks: {
    afterHandler(ctx, res) {
      const data = res.body['data'];
      if (!kindIs(ctx, 'list') || !isSuccess(res) || !Array.isArray(data)) return;
      let memory = lastOfPage.get(ctx.store);
      if (!memory) {
        memory = new Map();
        lastOfPage.set(ctx.store, memory);
      }
      const last = data[data.length - 1] as JsonObject | undefined;
      const link = nextLinkOf(res);
      const cursor = typeof link === 'string' && link !== '' ? parseLink(ctx, link).searchParams.get('cursor') : null;
      if (cursor !== null && last) {
        if (memory.size >= MAX_REMEMBERED) memory.delete(memory.keys().next().value as string);
        memory.set(cursor, last);
      }
      const repeated = memory.get(ctx.query.get('cursor') ?? '');
      if (repeated) data.unshift(repeated);
    },
  },
};
