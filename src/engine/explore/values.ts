// The values exploration sends: over the whole domain each field's schema admits, not only the tame data of the
// factories. Drawn by fast-check, so a failing sequence shrinks to simpler values too.
import fc from 'fast-check';
import type { FieldInfo } from '../../spec/index.js';

/**
 * A value as drawn, before the session makes it concrete: most are the value itself; `{ slot }` is one of a few
 * values shared by the records of one sequence (so that a write leaking into another record that shares it shows).
 */
export type Drawn = { value: unknown } | { slot: number };

/** Code points past this many make a value one an implementation may refuse (FIELD_LIMITS: limits are not shown). */
export const LONG_TEXT = 255;

/** Text in every script and plane, with the characters storage and templating layers mangle. */
const MARKUP = ['<b>bold</b>', '&amp;', '"quoted"', "it's", 'back\\slash', '</script>', '${x}', '{{x}}', '%s%n', 'a\tb\nc', ' padded ', 'e\u0301', '\u00e9', '👩🏽‍💻', '𝄞', '\u200b', 'null', 'true', '0'];

const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }) },
  { weight: 3, arbitrary: fc.array(fc.oneof(fc.constantFrom(...MARKUP), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 })), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }).chain((unit) => fc.integer({ min: 2, max: 1200 }).map((n) => unit.repeat(Math.ceil(n / Math.max(1, [...unit].length))))) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ') },
);

/** Years every common date column holds (a signed 32-bit TIMESTAMP ends in January 2038). */
const SAFE_YEARS = { from: 2000, to: 2037 };
/** Milliseconds since 1970 of the first and last instants of SAFE_YEARS, and of 2099's end. */
const SAFE_MS = { from: Date.UTC(SAFE_YEARS.from, 0, 1), to: Date.UTC(SAFE_YEARS.to + 1, 0, 1) - 1 };
const LAST_MS = 4_102_444_799_999;
/**
 * Instants from 1970 to 2099, three in four within SAFE_YEARS: a date outside them may be refused, and a batch that
 * holds one may be refused whole, so drawn evenly most batches would prove nothing about partial success.
 */
const instant: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: SAFE_MS.from, max: SAFE_MS.to }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: LAST_MS }) });
/** ISO 8601 date-times in UTC as the examples write them, at second or millisecond precision. */
const dateTime: fc.Arbitrary<string> = fc.tuple(instant, fc.boolean())
  .map(([ms, fraction]) => (fraction ? new Date(ms).toISOString() : new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z')));
const date: fc.Arbitrary<string> = instant.map((ms) => new Date(ms).toISOString().slice(0, 10));
// Counts at every size and precision JSON carries: zero, the 32-bit edge, 2^53-1, fractions and negatives. Zero and
// all but the first few an implementation may refuse (limits are not shown: refusable), but must not store as another number.
const count: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 1, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER, -1, 0.5, 2.75), fc.nat({ max: 100_000 }));

/** A value of a field's declared type (never null: a union field is optional text, and absent is drawn apart). */
export function valueOf(field: FieldInfo, vocabulary?: readonly string[]): fc.Arbitrary<unknown> {
  if (vocabulary?.length) return fc.constantFrom(...vocabulary);
  if (field.types.includes('number')) return count;
  if (field.format === 'date-time') return dateTime;
  if (field.format === 'date') return date;
  return text;
}

/** Numbers past this one make a value a limit may refuse (a signed 32-bit column: FIELD_LIMITS, LIMITS). */
export const LARGE_NUMBER = 2_147_483_647;

/** An ISO 8601 date or date-time in UTC, as exploration draws them; its year. */
const ISO_DATE = /^(\d{4})-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?$/;

/**
 * Whether an implementation may refuse the value without breaking a rule, the spec showing no limit ("Limits: not
 * shown. No … field lengths … are documented"): text longer than LONG_TEXT or blank (a least length is a limit too,
 * in any field), a count that is not a whole number from 1 to LARGE_NUMBER, a date outside SAFE_YEARS. Accepted, each
 * must be stored as sent all the same.
 */
export function refusable(value: unknown): boolean {
  if (typeof value === 'number') return value > LARGE_NUMBER || value < 1 || !Number.isInteger(value);
  if (typeof value !== 'string') return false;
  const year = ISO_DATE.exec(value)?.[1];
  if (year !== undefined) return Number(year) < SAFE_YEARS.from || Number(year) > SAFE_YEARS.to;
  return [...value].length > LONG_TEXT || value.trim() === '';
}

/** A value of another type than the field declares: what a batch item invalid in that one field carries. */
export function wrongTypeOf(field: FieldInfo): unknown {
  return field.types.includes('number') ? 'twelve' : 12345;
}
