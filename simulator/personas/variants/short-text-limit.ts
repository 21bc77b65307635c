import { errorReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

const LIMIT = 255;
/** 2^31 - 1: counts are kept in a signed 32-bit column. */
const MAX_COUNT = 2_147_483_647;

/** The first text longer than LIMIT code points, or count beyond MAX_COUNT, anywhere in a body; undefined when none. */
function overLimit(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return Array.from(value).length > LIMIT ? `${path} is longer than ${LIMIT} characters` : undefined;
  if (typeof value === 'number') return path.endsWith('count') && value > MAX_COUNT ? `${path} is larger than ${MAX_COUNT}` : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = overLimit(item, `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = overLimit(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

export const shortTextLimit: Persona = {
  name: 'short-text-limit',
  kind: 'variant',
  description: 'Text fields hold at most 255 characters and counts at most 2^31 - 1: a write with a longer text or a larger count is refused whole with 400 and the error body.',
  interprets: ['FIELD_LIMITS', 'LIMITS'],
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'batchCreate', 'replace', 'patch', 'attributeUpdate', 'usersReplace')) return;
      const problem = overLimit(ctx.body, '');
      if (problem) return errorReply('validation', `Field limit exceeded: ${problem}.`);
    },
  },
};
