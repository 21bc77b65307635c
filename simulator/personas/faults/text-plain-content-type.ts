import type { Persona } from '../types.js';

export const textPlainContentType: Persona = {
  name: 'text-plain-content-type',
  kind: 'fault',
  description: 'Every answer is labelled Content-Type: text/plain, although its body is the same JSON.',
  breaks: ['ENVELOPE.CONTENT_TYPE'],
  hooks: {
    serialize: (_ctx, res) => ({
      status: res.status,
      headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: JSON.stringify(res.body),
    }),
  },
};
