import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const batchAlways207: Persona = {
  name: 'batch-always-207',
  kind: 'variant',
  description: 'Every batch create that stores anything answers 207 Multi-Status, a fully valid batch included (its body is {message, data} as usual).',
  interprets: ['STATUS_CODES', 'STATUS_CODE_BODY_MAPPING'],
  declared: { statusCodes: { created: 207, partialSuccess: 207 } },
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'batchCreate') && (res.outcome === 'created' || res.outcome === 'partialSuccess')) res.status = 207;
    },
  },
};
