import { resourceInfo } from '../../../src/spec/index.js';
import type { JsonObject, Persona } from '../types.js';

export const lenientRequests: Persona = {
  name: 'lenient-requests',
  kind: 'variant',
  description: 'Request bodies are read as JSON whatever their Content-Type, and fields the spec does not list are ignored.',
  interprets: ['REQUEST_CONTENT_TYPE', 'EXTRA_FIELDS'],
  hooks: {
    onRequest(ctx) {
      // The token endpoint keeps its two encodings apart; elsewhere any body is JSON.
      if (ctx.path !== '/oauth2/token' && ctx.headers['content-type'] !== undefined) ctx.headers['content-type'] = 'application/json';
    },
    beforeValidation(ctx) {
      const resource = ctx.operation?.resource;
      if (!resource || resource === 'token') return;
      const known = new Set(resourceInfo(resource).fields.map((f) => f.name));
      for (const item of Array.isArray(ctx.body) ? (ctx.body as unknown[]) : [ctx.body]) {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
        for (const name of Object.keys(item)) if (!known.has(name)) delete (item as JsonObject)[name];
      }
    },
  },
};
