import { errorReply } from '../../envelope.js';
import { faultInWrite } from '../support.js';
import type { Persona } from '../types.js';

/** Years the service's date column holds. */
const YEARS = { from: 2000, to: 2037 };

/** Why a value is refused: blank text, a count below 1, a date outside YEARS; undefined when it is none of these. */
function refused(value: unknown, key: string): string | undefined {
  if (typeof value === 'number') return key === 'count' && value < 1 ? 'must be at least 1' : undefined;
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return 'must not be blank';
  const year = /^(\d{4})-\d{2}-\d{2}/.exec(value)?.[1];
  return year !== undefined && (Number(year) < YEARS.from || Number(year) > YEARS.to) ? `must be a date from ${YEARS.from} to ${YEARS.to}` : undefined;
}

export const strictValues: Persona = {
  name: 'strict-values',
  kind: 'variant',
  description: `Values are validated strictly: blank text (optional fields too), a count below 1 and a date outside ${YEARS.from}-${YEARS.to} make a write refused whole with 400 and the error body.`,
  interprets: ['FIELD_LIMITS', 'LIMITS'],
  hooks: {
    beforeHandler(ctx) {
      const problem = faultInWrite(ctx, refused);
      if (problem) return errorReply('validation', `${problem}.`);
    },
  },
};
