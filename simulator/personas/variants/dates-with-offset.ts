import { parseIsoDate } from '../../dates.js';
import { dataRecords } from '../support.js';
import type { Persona } from '../types.js';

const DATE_FIELDS = ['publication_at', 'recorded_at'];

export const datesWithOffset: Persona = {
  name: 'dates-with-offset',
  kind: 'variant',
  description: 'Dates in responses are date-times with milliseconds and a +00:00 offset (a calendar date as its midnight): the same instants, written otherwise.',
  interprets: ['DATE_VALUE_FORMAT'],
  hooks: {
    afterHandler(_ctx, res) {
      for (const record of dataRecords(res)) {
        for (const name of DATE_FIELDS) {
          const value = record[name];
          const parsed = typeof value === 'string' ? parseIsoDate(value) : undefined;
          if (parsed) record[name] = new Date(parsed.ms).toISOString().replace('Z', '+00:00');
        }
      }
    },
  },
};
