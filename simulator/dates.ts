// ISO 8601 dates as the simulator reads them: in request bodies (fields with a date `format` in spec/schemas) and
// in the date filters of the lists (their `format` in spec/openapi.yaml). It accepts everything RFC 3339 calls a
// date-time (T or space between date and time, any fraction, a leap second) and more (no seconds, no offset).
import { SCHEMA_BASE, declaredFormat, loadSchema, type DateFormat } from '../src/spec/index.js';

export const DAY_MS = 86_400_000;

export interface ParsedDate {
  /** Milliseconds since the epoch; a date without a zone is read as UTC. */
  ms: number;
  /** A calendar date (YYYY-MM-DD) rather than a date-time. */
  dateOnly: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (MONTH_DAYS[month - 1] as number);
}

/** Dates read lately: a created item's date is read twice (its check, its index), and a batch's dates repeat. */
const recent = new Map<string, Readonly<ParsedDate> | undefined>();
const RECENT_MAX = 4096;

/** Reads `2026-03-01` or `2026-03-01T09:00:00Z` (also with an offset, a fraction, or no seconds); else undefined. */
export function parseIsoDate(text: string): Readonly<ParsedDate> | undefined {
  if (text.length > 64) return readIsoDate(text);
  let parsed = recent.get(text);
  if (parsed === undefined && !recent.has(text)) {
    parsed = readIsoDate(text);
    // Emptied when full rather than kept in order: cheaper, and any text it forgets is simply read again.
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(text, parsed === undefined ? undefined : Object.freeze(parsed));
  }
  return parsed;
}

function readIsoDate(text: string): ParsedDate | undefined {
  const date = DATE.exec(text);
  const parts = date ?? DATE_TIME.exec(text);
  if (!parts) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = parts;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // 60: a leap second (RFC 3339 §5.6), read as the last second of its minute.
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  const millis = fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0;
  const ms = Date.UTC(year, month - 1, day, Number(h), Number(mi), Math.min(Number(s), 59), millis) - offsetMinutes * 60_000;
  return { ms, dateOnly: date !== null };
}

export type { DateFormat };

/** Whether a value is acceptable for a field annotated with the format: a date field takes a date-time too. */
export function matchesFormat(text: string, format: DateFormat): boolean {
  const parsed = parseIsoDate(text);
  return parsed !== undefined && (format === 'date' || !parsed.dateOnly);
}

export function formatHint(format: DateFormat): string {
  return format === 'date'
    ? 'an ISO 8601 date (YYYY-MM-DD) or date-time'
    : 'an ISO 8601 date-time such as 2026-03-01T09:00:00Z';
}

const formatsByFile = new Map<string, ReadonlyMap<string, DateFormat>>();
/** By schema URI too: every item of a batch asks, so the common case is one lookup and no string work. */
const formatsByUri = new Map<string, ReadonlyMap<string, DateFormat>>();

/** The fields of a schema file with a date `format`, for the schema URI of any of its definitions. */
export function dateFieldsOf(schemaUri: string): ReadonlyMap<string, DateFormat> {
  const known = formatsByUri.get(schemaUri);
  if (known) return known;
  const file = schemaUri.slice(SCHEMA_BASE.length).split('#')[0] ?? '';
  let found = formatsByFile.get(file);
  if (found) {
    formatsByUri.set(schemaUri, found);
    return found;
  }
  const fields = new Map<string, DateFormat>();
  const defs = (loadSchema(file)['$defs'] ?? {}) as Record<string, { properties?: Record<string, Record<string, unknown>> }>;
  for (const def of Object.values(defs)) {
    for (const [name, property] of Object.entries(def.properties ?? {})) {
      const format = declaredFormat(property);
      if (format) fields.set(name, format);
    }
  }
  found = fields;
  formatsByFile.set(file, found);
  formatsByUri.set(schemaUri, found);
  return found;
}
