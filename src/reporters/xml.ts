// Text into XML (junit.xml, the badge's SVG): markup characters as entities, and every character XML 1.0 cannot
// carry at all (C0 controls but tab, LF and CR; lone surrogates; U+FFFE and U+FFFF) replaced by U+FFFD, so a
// target's message cannot make the file ill-formed for the CI tool or browser that reads it.

// With the u flag a lone surrogate is a code point of its own, outside every range allowed here.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITY: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

/** The text as XML character data or an attribute value (quotes escaped too). */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => ENTITY[ch] as string).replace(NOT_XML, '\uFFFD');
}
