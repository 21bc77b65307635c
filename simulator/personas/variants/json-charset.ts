import type { Persona } from '../types.js';

export const jsonCharset: Persona = {
  name: 'json-charset',
  kind: 'variant',
  description: 'Every answer is labelled Content-Type: application/json; charset=utf-8 (a media type parameter).',
  interprets: [],
  hooks: {
    serialize: (_ctx, res) => ({
      status: res.status,
      headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(res.body),
    }),
  },
};
