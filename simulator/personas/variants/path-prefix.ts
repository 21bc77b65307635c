import type { Persona } from '../types.js';

export const pathPrefix: Persona = {
  name: 'path-prefix',
  kind: 'variant',
  description: 'The whole API is mounted under /api/v1, so {base_url} carries a path (http://host:port/api/v1).',
  interprets: [],
  options: { basePath: '/api/v1' },
  hooks: {},
};
