import { expect } from 'chai';
import { UsageError } from '../src/errors.js';
import { resolveOptions } from './options.js';
import type { Persona } from './personas/types.js';

describe('simulator options', () => {
  it('takes its defaults from the interpretation register', () => {
    const o = resolveOptions();
    expect(o).to.include({ host: '127.0.0.1', port: 0, seed: 1, records: 1000, pageSize: 50, maxBodyBytes: 10_485_760, basePath: '', admin: true });
    expect(o).to.include({ clientId: 'rdx-client', clientSecret: 'rdx-secret', tokenTtl: 3600 });
  });

  it('lets persona options override defaults and explicit options override personas', () => {
    const tiny: Persona = { name: 'tiny', kind: 'variant', description: 'Tiny pages.', options: { pageSize: 2, basePath: '/v2' }, hooks: {} };
    expect(resolveOptions({ personas: [tiny] })).to.include({ pageSize: 2, basePath: '/v2' });
    expect(resolveOptions({ personas: [tiny], pageSize: 9 })).to.include({ pageSize: 9, basePath: '/v2' });
  });

  const bad: [string, Parameters<typeof resolveOptions>[0]][] = [
    ['a port out of range', { port: 70_000 }],
    ['a fractional page size', { pageSize: 2.5 }],
    ['a negative seed', { seed: -1 }],
    ['NaN records', { records: Number.NaN }],
    ['an empty client secret', { clientSecret: '' }],
    ['a base path without a leading slash', { basePath: 'api' }],
    ['a base path with a trailing slash', { basePath: '/api/' }],
    ['a base path with a query', { basePath: '/api?x=1' }],
  ];
  for (const [what, options] of bad) {
    it(`refuses ${what} with a usage error`, () => {
      expect(() => resolveOptions(options)).to.throw(UsageError, /simulator option/);
    });
  }
});
