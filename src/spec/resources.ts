// Field facts of a resource (its fields, which are required, which tells created items apart), read from the
// annotations of its schema file.
import { loadSchema } from './files.js';
import { declaredFormat } from './schemas.js';

export interface FieldInfo {
  name: string;
  /** JSON types the request schema admits (null admitted means "optional, may be cleared"). */
  types: string[];
  union: boolean;
  identity: boolean;
  reference: boolean;
  format?: string;
}

export interface ResourceInfo {
  resource: string;
  fields: FieldInfo[];
  /** Fields a create item must carry. */
  required: string[];
  /** The field that tells one created item from another. */
  identity: string;
  /**
   * The fields of a create item that name the record it creates, for learning its {id} (an id source's key):
   * x-rdx-id-key of the schema file, which starts with the identity field; else the identity field alone.
   */
  idKey: string[];
}

/** The def describing one item a client creates, per resource file. */
const CREATE_DEF: Record<string, string> = { user: 'replace-item' };

/** Field facts of a resource, read from its schema (fields, or the create def when there is no fields def). */
const resourceInfoCache = new Map<string, ResourceInfo>();
export function resourceInfo(resource: string): ResourceInfo {
  const cached = resourceInfoCache.get(resource);
  if (cached) return cached;
  const defs = loadSchema(`${resource}.json`)['$defs'] as Record<string, Record<string, unknown>>;
  const create = defs[CREATE_DEF[resource] ?? 'create'];
  if (!create) throw new Error(`rdx: spec/schemas/${resource}.json has no create def`);
  const props = ((defs['fields'] ?? create)['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const fields: FieldInfo[] = Object.entries(props).map(([name, p]) => ({
    name,
    types: Array.isArray(p['type']) ? (p['type'] as string[]) : [String(p['type'] ?? 'string')],
    union: p['x-rdx-union'] === true,
    identity: p['x-rdx-identity'] === true,
    reference: typeof p['x-rdx-reference'] === 'string',
    ...(declaredFormat(p) ? { format: declaredFormat(p) } : {}),
  }));
  const identity = fields.find((f) => f.identity)?.name;
  if (!identity) throw new Error(`rdx: spec/schemas/${resource}.json marks no field x-rdx-identity`);
  const schema = loadSchema(`${resource}.json`);
  const idKey = Array.isArray(schema['x-rdx-id-key']) ? (schema['x-rdx-id-key'] as unknown[]).map(String) : [identity];
  if (idKey[0] !== identity || idKey.some((name) => !fields.some((f) => f.name === name))) {
    throw new Error(`rdx: spec/schemas/${resource}.json: x-rdx-id-key must start with the x-rdx-identity field ${identity} and name only its fields`);
  }
  const info = { resource, fields, required: (create['required'] as string[] | undefined) ?? [], identity, idKey };
  resourceInfoCache.set(resource, info);
  return info;
}
