import type { Persona } from '../types.js';

export const html500OnMalformedJson: Persona = {
  name: 'html-500-on-malformed-json',
  kind: 'fault',
  description: 'A body that is not well-formed JSON crashes the request: 500 with an HTML error page.',
  breaks: ['REQUEST.MALFORMED_JSON'],
  hooks: {
    serialize: (_ctx, res) => (res.outcome === 'malformedJson'
      ? { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html><body><h1>500 Internal Server Error</h1><pre>SyntaxError: Unexpected end of JSON input</pre></body></html>' }
      : undefined),
  },
};
