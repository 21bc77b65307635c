import { errorReply } from '../../envelope.js';
import { kindIs } from '../support.js';
import type { Persona } from '../types.js';

const BOUNDS = ['min_publication_date', 'max_publication_date', 'min_date', 'max_date'];
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

export const dateTimeBoundsOnly: Persona = {
  name: 'date-time-bounds-only',
  kind: 'variant',
  description: 'Date filters take ISO 8601 date-times only; a calendar date (YYYY-MM-DD) as a bound is refused with 400.',
  interprets: ['DATE_FILTER_FORMAT'],
  declared: { dateFilterFormat: 'date-time' },
  hooks: {
    beforeHandler(ctx) {
      if (!kindIs(ctx, 'list')) return;
      const dates = BOUNDS.filter((name) => ctx.query.getAll(name).some((v) => CALENDAR_DATE.test(v)));
      if (dates.length > 0) {
        return errorReply('validation', 'Date filters must be ISO 8601 date-times such as 2026-03-01T00:00:00Z.', dates.map((n) => `${n} is a date without a time`));
      }
    },
  },
};
