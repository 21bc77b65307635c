// The start of a value's JSON text without writing all of it: a message quotes 160 characters of an answer, and
// JSON.stringify of a 1 MiB list page to keep 160 of them was a tenth of a run against a target of endless pages.

/** An array, or an object JSON.stringify writes member by member (no prototype of its own, no toJSON). */
function walkable(value: unknown): value is unknown[] | Record<string, unknown> {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * JSON.stringify(value), stopped once it is at least `limit` characters long: the first `limit` characters are those
 * of the whole text, and a text shorter than `limit` is the whole text (undefined where JSON.stringify gives none).
 * Arrays and plain objects are walked; anything else (a string, a Date) is written by JSON.stringify itself.
 */
export function jsonPrefix(value: unknown, limit: number): string | undefined {
  // A long string is cut before it is escaped: its escaped text is at least as long, so the cut falls past `limit`.
  const atom = (v: unknown): string | undefined => JSON.stringify(typeof v === 'string' && v.length > limit ? v.slice(0, limit) : v);
  const parts: string[] = [];
  let length = 0;
  const put = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length < limit;
  };
  const write = (v: unknown[] | Record<string, unknown>): boolean => {
    if (Array.isArray(v)) {
      if (!put('[')) return false;
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if ((i > 0 && !put(',')) || !(walkable(item) ? write(item) : put(atom(item) ?? 'null'))) return false;
      }
      return put(']');
    }
    if (!put('{')) return false;
    let first = true;
    for (const [key, item] of Object.entries(v)) {
      const nested = walkable(item);
      const text = nested ? '' : atom(item);
      if (text === undefined) continue;
      if (!put(`${first ? '' : ','}${JSON.stringify(key)}:${text}`) || (nested && !write(item))) return false;
      first = false;
    }
    return put('}');
  };
  if (!walkable(value)) return atom(value);
  write(value);
  return parts.join('');
}
