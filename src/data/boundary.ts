// Boundary text: the values a real client sends that tame data never does. Each kind mixes a faker phrase with the
// characters a storage layer tends to mangle (trims, normalises, truncates, drops what is outside the BMP), so a
// round trip judged code point for code point shows it. No faker is imported here (only its type): the caller
// passes the run's seeded one, so a seed gives the same text.
import type { Faker } from '@faker-js/faker';

/** Text in several scripts and forms: accents, CJK, right-to-left, emoji outside the BMP, combining marks. */
function scripts(faker: Faker): string {
  const word = faker.word.noun();
  // "e" + U+0301 (combining acute) must not come back as the precomposed "é" (U+00E9), nor the reverse.
  return `Crème brûlée ${word} — 採用担当 エンジニア · مهندس برمجيات · מהנדס · 👩🏽‍💻 𝄞 e\u0301te\u0301 Ångström`;
}

/** Spaces at both ends, quotes, backslashes, HTML-looking text and a tab. */
function edges(faker: Faker): string {
  return `  ${faker.word.adjective()} "quoted" 'single' back\\slash C:\\temp\\new <b>bold</b> &amp; <script>alert(1)</script>\t  `;
}

/** Exactly `length` code points of faker prose, with one character outside the BMP near the end. */
function long(faker: Faker, length: number): string {
  let prose = '';
  let points = 0;
  while (points < length) {
    const sentence = `${faker.lorem.sentence()} `;
    prose += sentence;
    points += SURROGATE.test(sentence) ? Array.from(sentence).length : sentence.length;
  }
  // Prose of one unit a code point (lorem's, always) is cut as a string: an array of 10,000 one-character strings
  // was a sixth of what a run allocated.
  const text = prose.length === points ? prose.slice(0, length) : Array.from(prose).slice(0, length).join('');
  if (length < 4) return text;
  const at = prose.length === points ? length - 3 : Array.from(text).slice(0, length - 3).join('').length;
  return `${text.slice(0, at)}𝄞${text.slice(at + (text.codePointAt(at) as number > 0xffff ? 2 : 1))}`;
}

const SURROGATE = /[\ud800-\udfff]/;

export const TEXT_KINDS = ['scripts', 'edges', 'long'] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

/** A boundary text of a kind; `long` takes a length in code points (256, 1000, 10000, …). */
export function boundaryText(faker: Faker, kind: string, length = 256): string {
  if (kind === 'scripts') return scripts(faker);
  if (kind === 'edges') return edges(faker);
  if (kind === 'long') return long(faker, length);
  throw new Error(`unknown text kind ${kind} (one of ${TEXT_KINDS.join(', ')})`);
}
