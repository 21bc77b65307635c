import { expect } from 'chai';
import { clause, interpretation } from '../../src/spec/index.js';
import { createFaker, jobOffer } from '../../src/data/factories.js';
import { errorReply } from '../envelope.js';
import { items, startTest, type Harness } from '../test-support.js';
import { allPersonas, personaByName } from './index.js';
import type { Persona } from './types.js';

describe('simulator personas', () => {
  it('has unique kebab-case names and known clause and interpretation ids', () => {
    const names = allPersonas().map((p) => p.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const p of allPersonas()) {
      expect(p.name).to.match(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(p.description).to.be.a('string').and.not.empty;
      for (const id of p.breaks ?? []) expect(() => clause(id), `${p.name} breaks ${id}`).not.to.throw();
      for (const id of p.interprets ?? []) expect(() => interpretation(id), `${p.name} interprets ${id}`).not.to.throw();
      expect(personaByName(p.name)).to.equal(p);
    }
    expect(personaByName('no-such-persona')).to.equal(undefined);
    expect(allPersonas('variant').map((p) => p.name)).to.include.members(['relative-next-link', 'path-prefix']);
  });

  describe('variant path-prefix', () => {
    let t: Harness;
    before(async () => {
      t = await startTest({ personas: [personaByName('path-prefix') as Persona], pageSize: 5 });
    });
    after(() => t.close());

    it('serves the API under /api/v1 and nothing at the root', async () => {
      expect(t.sim.baseUrl).to.match(/\/api\/v1$/);
      expect((await t.client.get('/ats/job-offers')).status).to.equal(200);
      const root = await t.client.get(`${new URL(t.sim.baseUrl).origin}/ats/job-offers`);
      expect(root.status).to.equal(404);
      expect(root.body.errors).to.be.an('array');
      expect((await t.client.get(`${new URL(t.sim.baseUrl).origin}/__admin/health`)).status, 'admin stays at the root').to.equal(200);
    });

    it('gives next links under the prefix', async () => {
      const link = (await t.client.get('/ats/job-offers')).body.meta?.next_link as string;
      expect(new URL(link).pathname).to.equal('/api/v1/ats/job-offers');
      expect((await t.client.get(link)).status).to.equal(200);
    });

    it('lets an explicit option win over the persona', async () => {
      const other = await startTest({ personas: [personaByName('path-prefix') as Persona], basePath: '/rdx' }, false);
      expect(other.sim.baseUrl).to.match(/\/rdx$/);
      await other.close();
    });
  });

  describe('variant relative-next-link', () => {
    let t: Harness;
    before(async () => {
      t = await startTest({ personas: [personaByName('relative-next-link') as Persona], pageSize: 4 });
    });
    after(() => t.close());

    it('gives a path with its query, which resolves against the base URL to the next page', async () => {
      const first = await t.client.get('/jobboard/activities?status=viewed');
      const link = first.body.meta?.next_link as string;
      expect(link).to.match(/^\/jobboard\/activities\?status=viewed&cursor=/);
      const second = await t.client.get(new URL(link, t.sim.baseUrl).href);
      expect(second.status).to.equal(200);
      expect(items(second).map((r) => r['id'])).not.to.include.members(items(first).map((r) => r['id']));
    });

    it('leaves the store untouched when it rewrites a response', async () => {
      const before = t.sim.store.jobboardActivities.values();
      await t.client.get('/jobboard/activities');
      expect(t.sim.store.jobboardActivities.values()).to.deep.equal(before);
    });
  });

  describe('hooks (with personas defined here, as a fault author would write them)', () => {
    const allOrNothing: Persona = {
      name: 'all-or-nothing-batches', kind: 'fault', description: 'A batch with one invalid item creates nothing.',
      breaks: ['BATCH.PARTIAL_SUCCESS'],
      hooks: {
        afterHandler(ctx, res) {
          if (ctx.operation?.kind !== 'batchCreate' || res.outcome !== 'partialSuccess') return;
          ctx.rollback();
          return errorReply('validation', 'The batch was refused.', (res.body['errors'] as { message: string }[]).map((e) => e.message));
        },
      },
    };
    const patchForgets: Persona = {
      name: 'patch-not-persisted', kind: 'fault', description: 'PATCH answers the change but does not keep it.',
      breaks: ['WRITE.PATCH_PARTIAL'],
      hooks: { afterHandler: (ctx) => (ctx.operation?.kind === 'patch' ? ctx.rollback() : undefined) },
    };
    const anyToken: Persona = {
      name: 'any-token', kind: 'fault', description: 'Any bearer token, or none, is accepted.', breaks: ['AUTH.BEARER_REQUIRED'],
      hooks: { authenticate: () => ({ ok: true, clientId: 'anyone' }) },
    };
    const htmlOnBadJson: Persona = {
      name: 'html-500', kind: 'fault', description: 'Malformed JSON gets an HTML 500 page.', breaks: ['REQUEST.MALFORMED_JSON'],
      hooks: {
        serialize: (_ctx, res) => (res.outcome === 'malformedJson'
          ? { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>Internal Server Error</h1>' }
          : undefined),
      },
    };
    let t: Harness;
    const faker = createFaker(99);
    before(async () => {
      t = await startTest({ personas: [allOrNothing, patchForgets, anyToken, htmlOnBadJson] });
    });
    after(() => t.close());

    it('all-or-nothing: a mixed batch is refused and nothing of it stays', async () => {
      const before = t.sim.store.jobOffers.size;
      const res = await t.client.post('/ats/job-offers', [jobOffer(faker), { title: 'no reference' }]);
      expect(res.status).to.equal(400);
      expect(t.sim.store.jobOffers.size).to.equal(before);
    });

    it('patch-not-persisted: the answer shows the change, the store does not', async () => {
      const res = await t.client.patch('/ats/job-offers/JO-2026-000001', { title: 'Changed' });
      expect(items(res)[0]?.['title']).to.equal('Changed');
      expect(t.sim.store.jobOffers.get('JO-2026-000001')?.title).not.to.equal('Changed');
    });

    it('any-token: a request without a token is served', async () => {
      expect((await t.client.get('/ats/job-offers', { anonymous: true })).status).to.equal(200);
    });

    it('html-500: malformed JSON gets HTML', async () => {
      const res = await t.client.send('POST', '/ats/job-offers', { raw: '[', headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(500);
      expect(res.headers['content-type']).to.equal('text/html');
    });
  });
});
