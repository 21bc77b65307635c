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

/**
 * A deep copy of a body, as structuredClone(body) makes it. A body is almost always a tree of plain objects, arrays
 * and primitives, which this copies by hand in a fifth of structuredClone's time (a 50-record page: 190-280 µs
 * against 36-56 µs); anything else in it (a Date, a class instance, a function, a hole or extra member in an array)
 * and the whole body goes to structuredClone, so every copy is what structuredClone makes, shared parts shared.
 */
export function copyBody<T>(body: T): T {
  try {
    return copyTree(body, new Map()) as T;
  } catch {
    // Not plain, or too deep for this recursion: structuredClone copies it, or throws what it always threw.
    return structuredClone(body);
  }
}

const NOT_PLAIN = new Error('not a tree of plain objects and arrays');

function copyTree(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value === 'function') throw NOT_PLAIN;
  if (value === null || typeof value !== 'object') return value;
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    if (Object.keys(value).length !== value.length) throw NOT_PLAIN;
    const out: unknown[] = new Array<unknown>(value.length);
    copies.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = copyTree(value[i], copies);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  copies.set(value, out);
  for (const key of Object.keys(value)) {
    const copy = copyTree((value as Record<string, unknown>)[key], copies);
    // An own "__proto__" member (JSON.parse makes one) stays a member, as structuredClone keeps it.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out;
}
