import { errorReply } from '../../envelope.js';
import { faultInWrite } from '../support.js';
import type { Persona } from '../types.js';

const LIMIT = 255;
/** 2^31 - 1: counts are kept in a signed 32-bit column. */
const MAX_COUNT = 2_147_483_647;

/** What is wrong with a text longer than LIMIT code points or a count beyond MAX_COUNT; undefined for anything else. */
function overLimit(value: unknown, _key: string, path: string): string | undefined {
  if (typeof value === 'string') return Array.from(value).length > LIMIT ? `is longer than ${LIMIT} characters` : undefined;
  if (typeof value === 'number') return path.endsWith('count') && value > MAX_COUNT ? `is larger than ${MAX_COUNT}` : undefined;
  return undefined;
}

export const shortTextLimit: Persona = {
  name: 'short-text-limit',
  kind: 'variant',
  description: 'Text fields hold at most 255 characters and counts at most 2^31 - 1: a write with a longer text or a larger count is refused whole with 400 and the error body.',
  interprets: ['FIELD_LIMITS', 'LIMITS'],
  hooks: {
    beforeHandler(ctx) {
      const problem = faultInWrite(ctx, overLimit);
      if (problem) return errorReply('validation', `Field limit exceeded: ${problem}.`);
    },
  },
};
