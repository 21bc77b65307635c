import type { Persona } from '../types.js';

export const smallPages: Persona = {
  name: 'small-pages',
  kind: 'variant',
  description: 'Lists hold 3 records a page, so every walk crosses many page breaks.',
  interprets: ['PAGE_SIZE'],
  declared: { pageSize: 3 },
  options: { pageSize: 3 },
  hooks: {},
};
