// Routes are the paths of spec/openapi.yaml, read through src/spec; nothing here names a path.
import type { Operation } from '../src/spec/index.js';

export type RouteMatch =
  | { kind: 'found'; operation: Operation; params: Record<string, string> }
  | { kind: 'method'; allow: string[] }
  | { kind: 'none' }
  | { kind: 'bad'; message: string };

interface Route {
  /** Literal segments, or the parameter name for a `{param}` segment. */
  segments: { literal?: string; param?: string }[];
  methods: Map<string, Operation>;
}

export class Router {
  private readonly literal = new Map<string, Route>();
  private readonly templated: Route[] = [];

  constructor(operations: readonly Operation[]) {
    const byPath = new Map<string, Route>();
    for (const op of operations) {
      let route = byPath.get(op.path);
      if (!route) {
        const segments = op.path.split('/').slice(1).map((s) => {
          const param = /^\{(.+)\}$/.exec(s)?.[1];
          return param ? { param } : { literal: s };
        });
        route = { segments, methods: new Map() };
        byPath.set(op.path, route);
        if (segments.some((s) => s.param)) this.templated.push(route);
        else this.literal.set(op.path, route);
      }
      route.methods.set(op.method, op);
    }
  }

  match(method: string, path: string): RouteMatch {
    let route = this.literal.get(path);
    let params: Record<string, string> = {};
    if (!route) {
      const parts = path.split('/').slice(1);
      for (const candidate of this.templated) {
        if (candidate.segments.length !== parts.length) continue;
        const found: Record<string, string> = {};
        let ok = true;
        for (let i = 0; i < parts.length && ok; i++) {
          const segment = candidate.segments[i] as Route['segments'][number];
          const part = parts[i] as string;
          if (segment.param) {
            if (part === '') ok = false;
            else {
              try {
                found[segment.param] = decodeURIComponent(part);
              } catch {
                return { kind: 'bad', message: `the path segment ${JSON.stringify(part)} is not valid percent-encoding` };
              }
            }
          } else ok = segment.literal === part;
        }
        if (ok) {
          route = candidate;
          params = found;
          break;
        }
      }
    }
    if (!route) return { kind: 'none' };
    // HEAD is GET without the body (RFC 9110 §9.3.2); node:http leaves the body out of a HEAD answer itself.
    const operation = route.methods.get(method) ?? (method === 'HEAD' ? route.methods.get('GET') : undefined);
    if (!operation) {
      const allow = [...route.methods.keys()];
      return { kind: 'method', allow: allow.includes('GET') ? [...allow, 'HEAD'] : allow };
    }
    return { kind: 'found', operation, params };
  }
}
