// The 21 operations of spec/openapi.yaml: method, path, kind, resource, and the schemas of their bodies.
import { asRecord, readYaml } from './files.js';
import { schemaUri } from './schemas.js';

export type OperationKind =
  | 'token' | 'batchCreate' | 'list' | 'get' | 'replace' | 'patch' | 'attributeUpdate' | 'delete' | 'usersReplace';

export interface Operation {
  operationId: string;
  endpoint: number;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  kind: OperationKind;
  resource: string;
  /** Schema URI of the request body, or of one item when the body is an array. */
  requestSchema?: string;
  requestIsArray: boolean;
  /** Schema URI of one record in the success body's data. */
  recordSchema?: string;
  /** The names of its query parameters (the filters of a list). */
  query: string[];
}

let openApiCache: Record<string, unknown> | undefined;
export function openApi(): Record<string, unknown> {
  openApiCache ??= asRecord(readYaml('openapi.yaml'), 'spec/openapi.yaml');
  return openApiCache;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Finds the schema ref of a JSON body, looking through one level of array and allOf. */
function bodyRef(schema: unknown): { ref?: string; isArray: boolean } {
  const s = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : {};
  if (typeof s['$ref'] === 'string') return { ref: s['$ref'], isArray: false };
  if (s['type'] === 'array') return { ...bodyRef(s['items']), isArray: true };
  return { isArray: false };
}

/** Finds the ref of one record of the success body's data (data.items, possibly nested for PUT /users). */
function recordRef(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Record<string, unknown>;
  const data = (s['properties'] as Record<string, unknown> | undefined)?.['data'] as Record<string, unknown> | undefined;
  if (data) {
    let items = data['items'] as Record<string, unknown> | undefined;
    while (items && items['type'] === 'array') items = items['items'] as Record<string, unknown> | undefined;
    if (items && typeof items['$ref'] === 'string') return items['$ref'];
  }
  for (const part of (s['allOf'] as unknown[] | undefined) ?? []) {
    const found = recordRef(part);
    if (found) return found;
  }
  return undefined;
}

function resolveLocal(doc: Record<string, unknown>, value: unknown): unknown {
  const ref = (value as Record<string, unknown> | undefined)?.['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return value;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
  return resolveLocal(doc, node);
}

let operationsCache: Operation[] | undefined;
/** The 21 operations, in endpoint order, as spec/openapi.yaml declares them. */
export function operations(): Operation[] {
  if (operationsCache) return operationsCache;
  const doc = openApi();
  const paths = asRecord(doc['paths'], 'spec/openapi.yaml paths');
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const body = resolveLocal(doc, op['requestBody']) as Record<string, unknown> | undefined;
      const bodySchema = (body?.['content'] as Record<string, Record<string, unknown>> | undefined)?.['application/json']?.['schema'];
      const request = bodyRef(bodySchema);
      const responses = (op['responses'] ?? {}) as Record<string, unknown>;
      const success = resolveLocal(doc, responses['2XX'] ?? responses['200'] ?? responses['201']) as Record<string, unknown> | undefined;
      const successSchema = (success?.['content'] as Record<string, Record<string, unknown>> | undefined)?.['application/json']?.['schema'];
      const record = recordRef(resolveLocal(doc, successSchema));
      const query = ((op['parameters'] ?? []) as unknown[]).map((p) => resolveLocal(doc, p) as Record<string, unknown>)
        .filter((p) => p['in'] === 'query').map((p) => String(p['name']));
      ops.push({
        operationId: String(op['operationId']),
        endpoint: Number(op['x-rdx-endpoint']),
        method: method.toUpperCase() as Operation['method'],
        path,
        kind: op['x-rdx-kind'] as OperationKind,
        resource: String(op['x-rdx-resource']),
        requestIsArray: request.isArray,
        query,
        ...(request.ref ? { requestSchema: schemaUri(request.ref) } : {}),
        ...(record ? { recordSchema: schemaUri(record) } : {}),
      });
    }
  }
  operationsCache = ops.sort((a, b) => a.endpoint - b.endpoint);
  return operationsCache;
}

export function operation(operationId: string): Operation {
  const found = operations().find((o) => o.operationId === operationId);
  if (!found) throw new Error(`rdx: unknown operation ${operationId} (not in spec/openapi.yaml)`);
  return found;
}
