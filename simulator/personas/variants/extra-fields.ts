import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

export const extraFields: Persona = {
  name: 'extra-fields',
  kind: 'variant',
  description: 'Records, envelopes and token answers carry members the spec does not list (created_by, revision, _links, request_id, meta.count, scope); not where the spec rules them out (id in ATS job offers, anything but value in a single-attribute update answer).',
  interprets: ['EXTRA_FIELDS'],
  hooks: {
    afterHandler(ctx, res) {
      res.body['request_id'] = 'req-0001';
      if (ctx.operation?.kind === 'token' && res.outcome === 'token') res.body['scope'] = 'rdx';
      const meta = res.body['meta'];
      if (typeof meta === 'object' && meta !== null) (meta as Record<string, unknown>)['count'] = dataRecords(res).length;
      // "its response items carry only `value`": an extra member there is a fault (RECORD.ATTRIBUTE_VALUE_ONLY).
      if (ctx.operation?.kind === 'attributeUpdate') return;
      for (const record of dataRecords(res)) {
        record['created_by'] = 'rdx-simulator';
        record['revision'] = 1;
        record['_links'] = { self: { href: '/not-part-of-the-spec' } };
      }
    },
  },
};
