import { kindIs } from '../support.js';
import type { JsonObject, Persona } from '../types.js';

/** A count kept in a signed 32-bit column: 2^31 wraps to -2^31, 2^53 - 1 to -1. */
function wrap(item: unknown): void {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
  const fields = item as JsonObject;
  if (typeof fields['count'] === 'number') fields['count'] = Number(BigInt.asIntN(32, BigInt(Math.trunc(fields['count']))));
}

export const largeCountsWrapped: Persona = {
  name: 'large-counts-wrapped',
  kind: 'fault',
  description: 'Activity counts are stored in a signed 32-bit column: a count of 2^31 or more is accepted and read back wrapped (2^31 as -2147483648).',
  breaks: ['WRITE.READ_BACK'],
  hooks: {
    beforeHandler(ctx) {
      if (ctx.operation?.resource !== 'jobboard-activity') return;
      if (kindIs(ctx, 'batchCreate') && Array.isArray(ctx.body)) (ctx.body as unknown[]).forEach(wrap);
      if (kindIs(ctx, 'replace', 'patch')) wrap(ctx.body);
    },
  },
};
