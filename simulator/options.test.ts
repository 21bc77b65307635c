import { expect } from 'chai';
import { UsageError } from '../src/errors.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../src/spec/index.js';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, resolveOptions } from './options.js';
import type { Persona } from './personas/types.js';

describe('simulator options', () => {
  it('takes its page size and body limit from the interpretation register (read here from the YAML itself)', () => {
    const { interpretations: register } = parseYaml(readFileSync(join(packageRoot, 'spec', 'interpretations.yaml'), 'utf8')) as { interpretations: { id: string; simulator: { default: unknown } }[] };
    const simulatorDefault = (id: string): unknown => register.find((i) => i.id === id)?.simulator.default;
    const o = resolveOptions();
    expect(o.pageSize).to.equal(simulatorDefault('PAGE_SIZE')).and.be.a('number');
    expect(o.maxBodyBytes).to.equal((simulatorDefault('LIMITS') as { bodyBytes: number }).bodyBytes).and.be.a('number');
  });

  it('listens on loopback on a free port, seeded, with the documented client and token lifetime by default', () => {
    const o = resolveOptions();
    expect(o).to.include({ host: '127.0.0.1', port: 0, seed: 1, records: 1000, basePath: '', admin: true, adminToken: undefined });
    expect(o).to.include({ clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET, tokenTtl: 3600 });
    // Off loopback the admin surface needs a token, made up when none is given.
    expect(resolveOptions({ host: '0.0.0.0' }).adminToken).to.match(/^[A-Za-z0-9_-]{24}$/);
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
