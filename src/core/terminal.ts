// Text that came from a target (messages, reasons, values) is shown on a terminal only through escapeTerminal: a
// hostile target could otherwise clear the screen, retitle the window, plant hyperlinks (OSC 8), ring the bell or
// rewrite earlier lines. JSON output needs none of this: JSON.stringify already writes control characters as
// \u escapes.

export interface TerminalOptions {
  /** Keep line feeds, where the reporter prints the text as several lines (e.g. one line per broken assertion). */
  keepNewlines?: boolean;
}

/**
 * What shows nothing yet changes what is read: zero-width characters (U+200B-U+200F, U+2060-U+2064, U+FEFF), the
 * bidirectional marks, overrides and isolates that reorder what is shown ("Trojan Source": U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069) and tag characters (U+E0000-U+E007F). A target's text is shown with each of them
 * made visible: escaped on a terminal, marked in report.html.
 */
const INVISIBLE_CLASS = '\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff\\u{e0000}-\\u{e007f}';
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');

/** The text with each invisible character replaced by what `mark` makes of it (report.html: a visible mark). */
export function replaceInvisible(text: string, mark: (c: string, offset: number) => string): string {
  return text.replace(INVISIBLE, (c: string, offset: number) => mark(c, offset));
}
// C0 controls (tab and line feed included), DEL, C1 controls (0x80-0x9f: a lone 0x9b is a CSI on many
// terminals), and the invisible characters above.
const CONTROL = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE_CLASS}]`, 'gu');
const CONTROL_KEEP_LF = new RegExp(`[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE_CLASS}]`, 'gu');
// What JSON.stringify leaves raw but a terminal acts on or hides: DEL, the C1 controls and the invisible characters.
const JSON_RAW = new RegExp(`[\\u007f-\\u009f${INVISIBLE_CLASS}]`, 'gu');
const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** "U+202E": how report.html names an invisible character where it marks it. */
export const codePointName = (c: string): string => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A JSON escape of the character: \uXXXX, or its surrogate pair beyond U+FFFF (still valid JSON). */
const jsonEscape = (c: string): string => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

function visible(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.codePointAt(0) ?? 0;
  if (code > 0xffff) return `\\u{${code.toString(16)}}`;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The text with every control character written as a visible escape (ESC as \x1b, BEL as \x07, …). */
export function escapeTerminal(text: string, options: TerminalOptions = {}): string {
  return text.replace(options.keepNewlines ? CONTROL_KEEP_LF : CONTROL, visible);
}

/**
 * JSON text for a terminal: what JSON.stringify leaves raw and a terminal acts on or hides (DEL, C1 controls such
 * as a lone 0x9b CSI, the invisible characters) written as \u escapes. Those characters can stand only inside JSON
 * strings, so the text stays valid JSON and parses to the same value.
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(JSON_RAW, jsonEscape);
}
