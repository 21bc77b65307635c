import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clause, interpretation, interpretations } from '../../src/spec/index.js';
import { createFaker, jobOffer } from '../../src/data/factories.js';
import { errorReply } from '../envelope.js';
import { items, startTest, type Harness } from '../../test/support/simulator.js';
import { loadPersona, personaKind, personaNames } from './catalogue.js';
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

  it('lists every module of faults/ and variants/, each named after its file', async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    for (const kind of ['fault', 'variant'] as const) {
      const files = readdirSync(join(here, `${kind}s`)).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3));
      expect(allPersonas(kind).map((p) => p.name).sort(), `${kind}s/`).to.deep.equal(files.sort());
      // The catalogue that `rdx simulate` reads instead of loading every module finds the same personas.
      expect(personaNames(kind), `catalogue of ${kind}s/`).to.deep.equal(files.sort());
    }
    for (const p of allPersonas()) {
      expect(personaKind(p.name), p.name).to.equal(p.kind);
      expect(await loadPersona(p.name), p.name).to.equal(p);
    }
    expect(await loadPersona('no-such-persona')).to.equal(undefined);
    expect(personaKind('index')).to.equal(undefined);
  });

  it('has at least 30 faults, each breaking exactly one clause, and variants that break none', () => {
    expect(allPersonas('fault').length).to.be.at.least(30);
    for (const p of allPersonas('fault')) {
      expect(p.breaks, p.name).to.have.lengthOf(1);
      expect(p.interprets ?? [], p.name).to.be.empty;
      expect(p.declared, p.name).to.equal(undefined);
    }
    const keys = new Set(interpretations().map((i) => i.key).filter((k): k is string => k !== null));
    expect(allPersonas('variant'), 'variants').to.not.be.empty;
    for (const p of allPersonas('variant')) {
      expect(p.breaks ?? [], p.name).to.be.empty;
      for (const key of Object.keys(p.declared ?? {})) expect(keys.has(key), `${p.name} declares ${key}`).to.equal(true);
    }
    for (const p of allPersonas()) expect(p.description, p.name).not.to.match(/\n/);
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
      const before = t.store.jobboardActivities.values();
      await t.client.get('/jobboard/activities');
      expect(t.store.jobboardActivities.values()).to.deep.equal(before);
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
      const before = t.store.jobOffers.size;
      const res = await t.client.post('/ats/job-offers', [jobOffer(faker), { title: 'no reference' }]);
      expect(res.status).to.equal(400);
      expect(t.store.jobOffers.size).to.equal(before);
    });

    it('patch-not-persisted: the answer shows the change, the store does not', async () => {
      const res = await t.client.patch('/ats/job-offers/JO-2026-000001', { title: 'Changed' });
      expect(items(res)[0]?.['title']).to.equal('Changed');
      expect(t.store.jobOffers.get('JO-2026-000001')?.title).not.to.equal('Changed');
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

  describe('hook beforeValidation (fault put-accepts-missing-required)', () => {
    let t: Harness;
    before(async () => {
      t = await startTest({ personas: [personaByName('put-accepts-missing-required') as Persona] });
    });
    after(() => t.close());

    it('sees the body before the schema does: a PUT without title is accepted and the stored title kept', async () => {
      const stored = t.store.jobOffers.get('JO-2026-000002');
      const res = await t.client.put('/ats/job-offers/JO-2026-000002', { reference: 'JO-2026-000002', publication_at: '2026-04-01T09:00:00Z' });
      expect(res.status).to.equal(200);
      expect(t.store.jobOffers.get('JO-2026-000002')?.title).to.equal(stored?.title);
      expect(t.store.jobOffers.get('JO-2026-000002')?.publication_at).to.equal('2026-04-01T09:00:00Z');
    });

    it('still refuses what the persona leaves alone: a title of the wrong type', async () => {
      const res = await t.client.put('/ats/job-offers/JO-2026-000002', { reference: 'JO-2026-000002', publication_at: '2026-04-01T09:00:00Z', title: 5 });
      expect(res.status).to.equal(400);
    });
  });

  describe('fault expired-token-accepted', () => {
    let t: Harness;
    let clock = Date.UTC(2026, 0, 1);
    before(async () => {
      t = await startTest({ personas: [personaByName('expired-token-accepted') as Persona], now: () => clock });
    });
    after(() => t.close());

    it('issues 2-second tokens and keeps serving a token long after it expired, on every use', async () => {
      const token = await t.client.post('/oauth2/token', { client_id: 'rdx-client', client_secret: 'rdx-secret' }, { anonymous: true });
      expect(token.body['expires_in']).to.equal(2);
      clock += 60_000;
      expect((await t.client.get('/ats/job-offers')).status).to.equal(200);
      expect((await t.client.get('/ats/job-offers')).status, 'a second use').to.equal(200);
      expect((await t.client.get('/ats/job-offers', { headers: { authorization: 'Bearer made-up' } })).status, 'a made-up token').to.equal(401);
    });
  });

  describe('the faults and the variant of ties, repeated PUT /users and letter case', () => {
    /** Every activity of a walk of GET /jobboard/activities?job_offer_reference=REF, by count; bounded in pages. */
    async function walkReference(t: Harness, reference: string): Promise<unknown[]> {
      const counts: unknown[] = [];
      let link: string | null | undefined = `${t.sim.baseUrl}/jobboard/activities?job_offer_reference=${encodeURIComponent(reference)}`;
      for (let page = 0; link && page < 100; page++) {
        const res = await t.client.get(new URL(link, t.sim.baseUrl).href);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        counts.push(...items(res).map((r) => r['count']));
        link = res.body.meta?.next_link;
      }
      return counts;
    }
    /** 12 activities of one reference recorded on one day, counts 1 to 12. */
    async function tiedActivities(t: Harness, reference: string): Promise<void> {
      const body = Array.from({ length: 12 }, (_, i) => ({ job_offer_reference: reference, recorded_at: '2026-03-03', status: 'viewed', count: i + 1 }));
      const res = await t.client.post('/jobboard/activities', body);
      expect(res.status, JSON.stringify(res.body)).to.be.within(200, 299);
    }

    it('date-ties-unstable: a walk of 4-record pages over activities of one day repeats some and misses others; the plain simulator walks each once', async () => {
      for (const [personas, exact] of [[[], true], [[personaByName('date-ties-unstable') as Persona], false]] as const) {
        const t = await startTest({ personas: [...personas], pageSize: 4 });
        try {
          await tiedActivities(t, 'TIE-1');
          const got = await walkReference(t, 'TIE-1');
          expect(got, `${personas.length ? 'fault' : 'plain'}: one record a slot`).to.have.length(12);
          expect([...new Set(got)].length === 12, `${personas.length ? 'fault' : 'plain'}: ${JSON.stringify(got)}`).to.equal(exact);
        } finally {
          await t.close();
        }
      }
    });

    it('case-insensitive-references: a filter on Ref-a also returns REF-A; the plain simulator does not', async () => {
      for (const [personas, expected] of [[[], [1]], [[personaByName('case-insensitive-references') as Persona], [1, 2]]] as const) {
        const t = await startTest({ personas: [...personas], pageSize: 1 });
        try {
          const res = await t.client.post('/jobboard/activities', [
            { job_offer_reference: 'Ref-a', recorded_at: '2026-03-03', status: 'viewed', count: 1 },
            { job_offer_reference: 'REF-A', recorded_at: '2026-03-04', status: 'viewed', count: 2 },
          ]);
          expect(res.status, JSON.stringify(res.body)).to.be.within(200, 299);
          // Pages of one record: next_link carries the filter as sent, and the next page widens it again.
          const got = await walkReference(t, 'Ref-a');
          expect(got.sort()).to.deep.equal([...expected]);
          expect(await walkReference(t, 'ref-A'), 'the exact reference matches nothing of its own').to.deep.equal(personas.length ? [1, 2] : []);
        } finally {
          await t.close();
        }
      }
    });

    it('users-put-appends: the same users sent twice are listed twice; the plain simulator lists them once', async () => {
      const users = [{ mail: 'ada@example.test', first_name: 'Ada' }, { mail: 'alan@example.test', first_name: 'Alan' }];
      for (const [personas, copies] of [[[], 1], [[personaByName('users-put-appends') as Persona], 2]] as const) {
        const t = await startTest({ personas: [...personas] });
        try {
          const first = await t.client.put('/users', users);
          expect(first.status, JSON.stringify(first.body)).to.equal(200);
          const second = await t.client.put('/users', users);
          const mails = (second.body.data as { mail: string }[][]).flat().map((u) => u.mail);
          expect(mails.filter((m) => m === 'ada@example.test'), JSON.stringify(mails)).to.have.length(copies);
        } finally {
          await t.close();
        }
      }
    });
  });

  describe('pagination faults and variants walk as described', () => {
    /** Every record of a walk of GET /jobboard/activities?status=viewed, by id; bounded in pages. */
    async function walk(t: Harness): Promise<unknown[]> {
      const ids: unknown[] = [];
      let link: string | null | undefined = `${t.sim.baseUrl}/jobboard/activities?status=viewed`;
      for (let page = 0; link && page < 100; page++) {
        const res = await t.client.get(new URL(link, t.sim.baseUrl).href);
        ids.push(...items(res).map((r) => r['id']));
        link = res.body.meta?.next_link;
      }
      return ids;
    }
    const expected = async (): Promise<unknown[]> => {
      const t = await startTest({ pageSize: 1000 });
      try {
        const all = await walk(t);
        // Enough for several 4-record pages, or the walks below would prove nothing.
        expect(all.length).to.be.greaterThan(8);
        return all;
      } finally {
        await t.close();
      }
    };

    for (const [name, check] of [
      ['duplicate-across-pages', (got: unknown[], all: unknown[]) => {
        expect(new Set(got)).to.deep.equal(new Set(all));
        expect(got.length).to.be.greaterThan(all.length);
      }],
      ['gap-between-pages', (got: unknown[], all: unknown[]) => {
        expect(got.length).to.be.lessThan(all.length);
        expect(new Set(got).size).to.equal(got.length);
      }],
      ['newest-first', (got: unknown[], all: unknown[]) => expect(got).to.deep.equal([...all].reverse())],
      ['empty-page-end', (got: unknown[], all: unknown[]) => expect(got).to.deep.equal(all)],
    ] as const) {
      it(`${name}: a walk of 4-record pages`, async () => {
        const all = await expected();
        const t = await startTest({ personas: [personaByName(name) as Persona], pageSize: 4 });
        try {
          check(await walk(t), all);
        } finally {
          await t.close();
        }
      });
    }

    it('exclusive-date-bounds: leaves out a record on the bound, and next_link carries the bounds as sent', async () => {
      const t = await startTest({ personas: [personaByName('exclusive-date-bounds') as Persona], pageSize: 2 });
      try {
        const day = t.store.jobboardActivities.values()[0]?.recorded_at.slice(0, 10) as string;
        const on = await t.client.get(`/jobboard/activities?min_date=${day}&max_date=${day}`);
        expect(on.status, JSON.stringify(on.body)).to.equal(200);
        expect(on.body.data, 'a listing, with no record on the bound').to.deep.equal([]);
        // The control: a day either side takes the record in, so the empty page above is the bound's doing.
        const shift = (days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
        const around = await t.client.get(`/jobboard/activities?min_date=${shift(-1)}&max_date=${shift(1)}`);
        expect(around.status).to.equal(200);
        expect(items(around).map((r) => String(r['recorded_at']).slice(0, 10))).to.include(day);
        const wide = await t.client.get('/jobboard/activities?min_date=2000-01-01&max_date=2100-12-31');
        const link = new URL(wide.body.meta?.next_link as string);
        expect(link.searchParams.get('min_date')).to.equal('2000-01-01');
        expect(link.searchParams.get('max_date')).to.equal('2100-12-31');
      } finally {
        await t.close();
      }
    });
  });
});
