import { kindIs, storedRecord } from '../support.js';
import type { Persona } from '../types.js';

export const errorWithRecords: Persona = {
  name: 'error-with-records',
  kind: 'fault',
  description: 'A refused PUT or PATCH answers its 400 with the stored record in data beside the errors, as if it had succeeded.',
  breaks: ['HTTP.STATUS_MATCHES_BODY'],
  hooks: {
    afterHandler(ctx, res) {
      if (!kindIs(ctx, 'replace', 'patch') || res.outcome !== 'validation') return;
      const current = storedRecord(ctx);
      if (current) res.body['data'] = [current];
    },
  },
};
