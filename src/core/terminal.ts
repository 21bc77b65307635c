/* eslint-disable no-control-regex -- finding control characters is what this module is for */
// Text that came from a target (messages, reasons, values) is shown on a terminal only through escapeTerminal: a
// hostile target could otherwise clear the screen, retitle the window, plant hyperlinks (OSC 8), ring the bell or
// rewrite earlier lines. JSON output needs none of this: JSON.stringify already writes control characters as
// \u escapes.

export interface TerminalOptions {
  /** Keep line feeds, where the reporter prints the text as several lines (e.g. one line per broken assertion). */
  keepNewlines?: boolean;
}

// C0 controls (tab and line feed included), DEL, C1 controls (0x80-0x9f: a lone 0x9b is a CSI on many
// terminals), and the bidirectional overrides and isolates that reorder what is shown ("Trojan Source").
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_KEEP_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// What JSON.stringify leaves raw but a terminal acts on: DEL, the C1 controls and the bidi marks and overrides.
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function visible(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The text with every control character written as a visible escape (ESC as \x1b, BEL as \x07, …). */
export function escapeTerminal(text: string, options: TerminalOptions = {}): string {
  return text.replace(options.keepNewlines ? CONTROL_KEEP_LF : CONTROL, visible);
}

/**
 * JSON text for a terminal: what JSON.stringify leaves raw and a terminal acts on (DEL, C1 controls such as a lone
 * 0x9b CSI, bidi overrides) written as \u escapes. Those characters can stand only inside JSON strings, so the text
 * stays valid JSON and parses to the same value.
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
