import type { Persona } from '../types.js';

export const htmlErrorPages: Persona = {
  name: 'html-error-pages',
  kind: 'fault',
  description: 'Refusals for missing or bad credentials come as an HTML page (as from a gateway in front), not JSON.',
  breaks: ['ENVELOPE.JSON_BODY'],
  hooks: {
    serialize: (ctx, res) => (res.outcome === 'unauthorized' && ctx.operation?.kind !== 'token'
      ? {
        status: res.status,
        headers: { ...res.headers, 'content-type': 'text/html; charset=utf-8' },
        body: '<!doctype html><html><body><h1>401 Authorization Required</h1></body></html>',
      }
      : undefined),
  },
};
