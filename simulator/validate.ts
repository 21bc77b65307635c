// Request bodies against spec/schemas, through src/spec (ajv compiled once there), plus the ISO 8601 formats the
// schemas annotate. A valid body comes back with its null fields removed: null in a request means absent.
import { schemaErrors } from '../src/spec/index.js';
import { dateFieldsOf, formatHint, matchesFormat } from './dates.js';

export type JsonObject = Record<string, unknown>;
export type Checked = { ok: true; value: JsonObject } | { ok: false; problems: string[] };

/** "(body): title is required" → "title is required"; "/attributes/0/value: must be string" → "attributes/0/value: must be string". */
function plain(line: string): string {
  if (line.startsWith('(body): ')) return line.slice('(body): '.length);
  return line.startsWith('/') ? line.slice(1) : line;
}

function hasNull(body: JsonObject): boolean {
  for (const key in body) if (body[key] === null) return true;
  return false;
}

export function checkBody(schemaUri: string, value: unknown): Checked {
  const errors = schemaErrors(schemaUri, value);
  if (errors.length > 0) return { ok: false, problems: [...new Set(errors.map(plain))] };
  const body = value as JsonObject;
  const problems: string[] = [];
  for (const [field, format] of dateFieldsOf(schemaUri)) {
    const text = body[field];
    if (typeof text === 'string' && !matchesFormat(text, format)) problems.push(`${field} must be ${formatHint(format)}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  // Copied only when a null has to go: most bodies have none, and the parsed object is then used as it is.
  if (!hasNull(body)) return { ok: true, value: body };
  const clean: JsonObject = {};
  for (const [key, field] of Object.entries(body)) if (field !== null) clean[key] = field;
  return { ok: true, value: clean };
}
