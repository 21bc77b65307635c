import { isSuccess, kindIs, nextLinkOf } from '../support.js';
import type { Persona } from '../types.js';

export const gapBetweenPages: Persona = {
  name: 'gap-between-pages',
  kind: 'fault',
  description: 'At every page break one record is lost: a page leaves out its last record, and next_link starts after it.',
  breaks: ['PAGINATION.WALK'],
  hooks: {
    afterHandler(ctx, res) {
      const data = res.body['data'];
      const link = nextLinkOf(res);
      if (kindIs(ctx, 'list') && isSuccess(res) && typeof link === 'string' && link !== '' && Array.isArray(data) && data.length >= 2) data.pop();
    },
  },
};
