// A strict XML parser for the junit.xml tests (test tooling: importing it runs no tests).

export interface XmlElement { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string }

// XML 1.0 §2.2 Char, §2.3 Name (the ASCII subset junit.xml uses), §4.6 the predefined entities and character references.
const CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NAME = /^[A-Za-z_:][\w.:-]*$/;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Character data with its references resolved; throws on a bare '&' or '<', or a reference to a forbidden character. */
function characterData(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`${where}: '<' in character data`);
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`${where}: '&' that starts no reference`);
    const code = /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1] ?? /^#([0-9]+)$/.exec(ref)?.[1];
    if (code !== undefined) {
      const char = String.fromCodePoint(ref.startsWith('#x') ? parseInt(code, 16) : Number(code));
      if (!CHAR.test(char)) throw new Error(`${where}: reference ${whole} to a character XML forbids`);
      return char;
    }
    const named = PREDEFINED[ref];
    if (named === undefined) throw new Error(`${where}: unknown entity ${whole}`);
    return named;
  });
}

/**
 * A strict parser for what junit.xml holds (a declaration, elements, attributes, text; no DTD, comments or CDATA):
 * it throws where an XML 1.0 parser reports a well-formedness error.
 */
export function parseXml(xml: string): XmlElement {
  if (!CHAR.test(xml)) {
    const bad = [...xml].find((c) => !CHAR.test(c)) ?? '';
    throw new Error(`a character XML 1.0 forbids: U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  }
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!decl) throw new Error('no XML declaration');
  let at = decl[0].length;
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const tag = /<(\/?)([^\s/>]+)((?:\s+[^\s=]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
  while (at < xml.length) {
    const next = xml.indexOf('<', at);
    const text = xml.slice(at, next < 0 ? xml.length : next);
    const top = stack[stack.length - 1] as XmlElement;
    top.text += characterData(text, `text at ${at}`);
    if (next < 0) break;
    tag.lastIndex = next;
    const m = tag.exec(xml);
    if (!m) throw new Error(`malformed tag at ${next}: ${xml.slice(next, next + 40)}`);
    const [, close, name = '', attrs = '', selfClosing] = m;
    if (!NAME.test(name)) throw new Error(`bad element name ${name}`);
    if (close) {
      const open = stack.pop();
      if (!open || open.name !== name || stack.length === 0) throw new Error(`</${name}> closes ${open?.name ?? 'nothing'}`);
    } else {
      const element: XmlElement = { name, attributes: {}, children: [], text: '' };
      for (const a of attrs.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        const key = a[1] as string;
        if (!NAME.test(key) || Object.hasOwn(element.attributes, key)) throw new Error(`bad or repeated attribute ${key} on ${name}`);
        element.attributes[key] = characterData(a[2] ?? a[3] ?? '', `attribute ${key} of ${name}`);
      }
      top.children.push(element);
      if (!selfClosing) stack.push(element);
    }
    at = next + m[0].length;
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]?.name}> is never closed`);
  if (root.children.length !== 1 || root.text.trim()) throw new Error('not exactly one root element');
  return root.children[0] as XmlElement;
}
