// Text a target sent (messages, observed values, reasons quoting a body) on its way to a terminal: C0 and C1 control
// characters are shown as \xNN escapes, so a hostile answer cannot move the cursor, recolour or retitle the console.
// (Minimal version; branch `hostile` owns this file and its fuller rules.)

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function escapeTerminal(text: string): string {
  return text.replace(CONTROL, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
