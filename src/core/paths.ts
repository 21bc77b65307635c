// Reading a value out of a response body, a variable or a record: used by the checks and the engine's templates.

/** Reads `a.b.0.c` from a value; undefined where the path does not lead. */
export function readPath(value: unknown, path: string): unknown {
  let node: unknown = value;
  for (const part of path.split('.').filter((p) => p.length > 0)) {
    if (node === null || node === undefined) return undefined;
    if (Array.isArray(node)) node = /^\d+$/.test(part) ? node[Number(part)] : part === 'length' ? node.length : undefined;
    else if (typeof node === 'object') node = (node as Record<string, unknown>)[part];
    else return undefined;
  }
  return node;
}
