// Response bodies as JSON text. Lists spend most of their time serializing records, and stored records never
// change (a change installs a new object, see table.ts), so each record's JSON is made once and reused; the
// cache is weak, so a replaced record's text goes with it. Only list pages (the envelope with `meta`) and reads
// use it: a record a write answers is usually never served again, and a weak entry per created record only slows
// the collector (measured: 10-item batches spent 6% of their time filling it).
import type { JsonObject } from './context.js';

const recordText = new WeakMap<object, string>();

function itemJson(item: unknown): string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return JSON.stringify(item);
  let text = recordText.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    recordText.set(item, text);
  }
  return text;
}

/**
 * The same text as JSON.stringify(body), with the records of `data` taken from the cache when the body is a list
 * page or `stored` says its records are stored ones (the answer to a read).
 */
export function bodyJson(body: JsonObject, stored = false): string {
  const data = body['data'];
  if (!Array.isArray(data) || (body['meta'] === undefined && !stored)) return JSON.stringify(body);
  // The parts are joined once: a page is kilobytes, and each nested join or concatenation would copy it again.
  const parts: string[] = ['{'];
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === undefined || typeof value === 'function') continue;
    if (parts.length > 1) parts.push(',');
    parts.push(JSON.stringify(key), ':');
    if (key !== 'data') {
      parts.push(JSON.stringify(value));
      continue;
    }
    parts.push('[');
    for (let i = 0; i < data.length; i++) {
      if (i > 0) parts.push(',');
      parts.push(itemJson(data[i]));
    }
    parts.push(']');
  }
  parts.push('}');
  return parts.join('');
}
