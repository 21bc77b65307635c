import { errorReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

/** The first blank text (empty, or spaces only) anywhere in a body, by its path; undefined when none. */
function blank(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? path : undefined;
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = blank(item, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

export const blankTextRefused: Persona = {
  name: 'blank-text-refused',
  kind: 'variant',
  description: 'Text fields, optional ones too, must not be blank: a write with empty or spaces-only text anywhere is refused whole with 400 and the error body.',
  interprets: ['FIELD_LIMITS'],
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'batchCreate', 'replace', 'patch', 'attributeUpdate', 'usersReplace')) return;
      const field = blank(ctx.body, '');
      if (field !== undefined) return errorReply('validation', `${field || 'the body'} must not be blank.`);
    },
  },
};
