import { expect } from 'chai';
import { createFaker, jobOffer, jobboardActivity } from '../src/data/factories.js';
import type { JournalEntry } from './journal.js';
import { BODY_LIMIT, SLOT_BYTES, journalBody, maskHeaders, maskSecrets, packStrings, unpackStrings } from './journal.js';
import { resolveOptions } from './options.js';
import { Client, items, startTest, type Harness } from '../test/support/simulator.js';

describe('simulator: admin surface', () => {
  let t: Harness;
  let admin: Client;
  before(async () => {
    t = await startTest({ journalSize: 5 }, false);
    admin = new Client(t.sim.adminUrl?.replace(/\/$/, '') ?? '');
  });
  after(async () => {
    await admin.close();
    await t.close();
  });

  it('refuses a DNS-rebinding host and a cross-site origin, so a web page cannot reset the demo or read the journal', async () => {
    const rebound = await admin.send('GET', '/journal', { headers: { host: 'evil.example:80' } });
    expect(rebound.status).to.equal(401);
    const crossSite = await admin.send('POST', '/reset', { headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).to.equal(401);
    expect((await admin.send('POST', '/reset', { headers: { 'x-rdx-admin': '1' } })).status, 'a plain loopback client still may').to.equal(200);
  });

  it('refuses a state-changing call that a cross-site page could send (text/plain, a form, no Origin at all), whatever Origin says', async () => {
    await t.client.login(t.sim.options.clientId, t.sim.options.clientSecret);
    const { seed, records } = (await admin.get('/health')).body.data?.[0] as { seed: number; records: number };
    const reference = 'JO-CSRF-1';
    expect((await t.client.post('/ats/job-offers', [jobOffer(createFaker(2), { reference })])).status).to.equal(201);
    const simple: Record<string, string>[] = [
      {}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'multipart/form-data; boundary=x' },
      { 'content-type': 'text/plain', origin: `http://127.0.0.1:${new URL(t.sim.baseUrl).port}` }, { 'content-type': 'text/plain', origin: 'null' },
    ];
    for (const headers of simple) {
      for (const name of ['/reset', '/reseed', '/expired-token']) {
        const res = await admin.send('POST', name, { headers, raw: name === '/reseed' ? '{"seed":9,"records":3}' : '' });
        expect(res.status, `POST ${name} with ${JSON.stringify(headers)}`).to.equal(401);
        expect(res.body.message).to.match(/x-rdx-admin: 1 header or a JSON body|from this origin/);
      }
    }
    expect((await t.client.get(`/ats/job-offers/${reference}`)).status, 'a refused reset still reset the store').to.equal(200);
    expect((await admin.send('POST', '/reseed', { body: { seed: 9, records: 3 } })).status, 'JSON, as scripts send it').to.equal(200);
    expect((await admin.send('POST', '/expired-token', { headers: { 'x-rdx-admin': '1' } })).status).to.equal(200);
    expect((await admin.send('POST', '/reseed', { body: { seed, records } })).status).to.equal(200);
  });

  it('reports health with the seed and record counts', async () => {
    const res = await admin.get('/health');
    expect(res.status).to.equal(200);
    const health = items(res)[0];
    expect(health).to.include({ status: 'up', seed: 1, records: 100 });
    expect(health?.['counts']).to.deep.equal(t.store.counts());
  });

  it('journals requests with secrets and tokens masked', async () => {
    const token = await t.client.login();
    await t.client.get('/ats/job-offers?reference=JO-2026-000001');
    const entries = items(await admin.get('/journal')) as unknown as JournalEntry[];
    const text = JSON.stringify(entries);
    expect(text).not.to.include('rdx-secret');
    expect(text).not.to.include(token);
    const login = entries.find((e) => e.operationId === 'requestToken');
    expect(login?.requestBody).to.include('"client_secret":"***"');
    expect(login?.responseBody).to.include('"access_token":"***"');
    const list = entries.find((e) => e.operationId === 'listJobOffers');
    expect(list).to.include({ method: 'GET', path: '/ats/job-offers?reference=JO-2026-000001', status: 200, clientId: 'rdx-client' });
    expect(list?.requestHeaders['authorization']).to.equal('Bearer ***');
    expect(list?.latencyMs).to.be.a('number');
  });

  it('journals exactly the text each answer sent, even after the records it showed have changed', async () => {
    await t.client.login();
    const reference = t.store.jobOffers.values()[0]?.reference ?? '';
    const path = `/ats/job-offers/${encodeURIComponent(reference)}`;
    const one = await t.client.get(path);
    const page = await t.client.get('/ats/job-offers');
    const created = await t.client.post('/jobboard/activities', [{ recorded_at: '2026-03-02', job_offer_reference: reference, status: 'viewed', count: 2 }]);
    // The record shown above changes afterwards: the journal still shows what was sent then.
    expect((await t.client.patch(path, { title: 'Changed after the fact' })).status).to.equal(200);
    const entries = items(await admin.get('/journal')) as unknown as JournalEntry[];
    const sent = (operationId: string): string | null | undefined => entries.find((e) => e.operationId === operationId)?.responseBody;
    expect(sent('getJobOffer')).to.equal(one.text);
    expect(sent('listJobOffers')).to.equal(page.text);
    expect(sent('batchCreateJobboardActivities')).to.equal(created.text);
    expect(one.text).to.not.include('Changed after the fact');
    // Back to the seeded data for the tests after this one.
    expect((await admin.send('POST', '/reset', { headers: { 'x-rdx-admin': '1' } })).status).to.equal(200);
  });

  it('keeps only the newest entries (a ring)', async () => {
    for (let i = 0; i < 8; i++) await t.client.get(`/ats/job-offers?reference=R${i}`);
    const entries = items(await admin.get('/journal')) as unknown as JournalEntry[];
    expect(entries.map((e) => e.path)).to.deep.equal([3, 4, 5, 6, 7].map((i) => `/ats/job-offers?reference=R${i}`));
    expect(items(await admin.get('/journal?limit=2'))).to.have.length(2);
  });

  it('shows each kept request its own body, small or large, after the ring has come round', async () => {
    const faker = createFaker(3);
    // Batches of 1 to 40 activities: some fit an entry's slot (SLOT_BYTES), some are kept as copies of their own.
    const sent = [1, 40, 3, 25, 2, 12, 33, 1].map((n) => JSON.stringify(Array.from({ length: n }, () => jobboardActivity(faker))));
    expect(sent.some((text) => text.length > SLOT_BYTES) && sent.some((text) => text.length <= SLOT_BYTES)).to.equal(true);
    // Headers of its own too: packed after the body in the slot, or kept as they are when they do not fit there.
    const note = (i: number): string => `batch ${i} ${'n'.repeat(i % 2 === 0 ? 10 : 600)}`;
    for (const [i, raw] of sent.entries()) {
      const res = await t.client.send('POST', '/jobboard/activities', { raw, headers: { 'content-type': 'application/json', 'x-note': note(i) } });
      expect(res.status).to.be.below(300);
    }
    const entries = items(await admin.get('/journal')) as unknown as JournalEntry[];
    expect(entries.map((e) => e.requestBody)).to.deep.equal(sent.slice(3));
    expect(entries.map((e) => e.requestHeaders['x-note'])).to.deep.equal([3, 4, 5, 6, 7].map(note));
    expect(entries.every((e) => e.requestHeaders['authorization'] === 'Bearer ***')).to.equal(true);
  });

  it('packs header names and values into a slot exactly, or says that they do not fit', () => {
    const faker = createFaker(4);
    const buf = Buffer.alloc(8192);
    for (let round = 0; round < 200; round++) {
      // Latin-1 text, as node:http reads header bytes, of any length up to a few hundred characters.
      const strings = Array.from({ length: faker.number.int({ min: 0, max: 12 }) }, () =>
        String.fromCharCode(...Array.from({ length: faker.number.int({ min: 0, max: 300 }) }, () => faker.number.int({ min: 0, max: 0xff }))));
      const from = faker.number.int({ min: 0, max: 4000 });
      const needed = 2 + strings.reduce((sum, text) => sum + 2 + text.length, 0);
      expect(packStrings(strings, buf, from, from + needed - 1), `round ${round}: one byte short`).to.equal(false);
      expect(packStrings(strings, buf, from, from + needed), `round ${round}: exactly enough`).to.equal(true);
      expect(unpackStrings(buf, from), `round ${round}`).to.deep.equal(strings);
    }
    expect(packStrings(['ok', 'caf\u00e9 \u20ac'], buf, 0, 4096), 'a character above U+00FF').to.equal(false);
    expect(packStrings(['ok'], buf, 8190, 9000), 'past the end of the buffer').to.equal(false);
  });

  it('resets to the seed data', async () => {
    const seeded = t.store.jobOffers.values();
    await t.client.post('/ats/job-offers', [jobOffer(createFaker(1), { reference: 'JO-ADMIN-1' })]);
    expect(t.store.jobOffers.size).to.equal(seeded.length + 1);
    expect((await admin.send('POST', '/reset', { headers: { 'x-rdx-admin': '1' } })).status).to.equal(200);
    expect(t.store.jobOffers.values()).to.deep.equal(seeded);
    expect(t.journal.size).to.equal(0);
    expect((await t.client.get('/ats/job-offers')).status, 'tokens survive a reset').to.equal(200);
  });

  it('reseeds with another seed and volume, and refuses bad values', async () => {
    const res = await admin.post('/reseed', { seed: 9, records: 50 });
    expect(res.status).to.equal(200);
    expect(t.store.jobOffers.size).to.equal(10);
    const bad = await admin.post('/reseed', { seed: -1, records: 'many' });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors).to.have.length(2);
    expect((await admin.get('/reseed')).status).to.equal(405);
    expect((await admin.get('/nothing')).status).to.equal(404);
  });

  it('mints a token that has already expired, refused as invalid_token', async () => {
    const minted = await admin.send('POST', '/expired-token', { headers: { 'x-rdx-admin': '1' } });
    expect(minted.status).to.equal(200);
    const token = (items(minted)[0] as { access_token: string }).access_token;
    const res = await t.client.get('/ats/job-offers', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.include('error="invalid_token"');
    const direct = await t.client.get('/ats/job-offers', { headers: { authorization: `Bearer ${t.sim.expiredToken()}` } });
    expect(direct.status).to.equal(401);
  });

  it('masks secrets in form bodies, queries and credential headers', () => {
    expect(maskSecrets('client_id=a&client_secret=s3cr3t&x=1')).to.equal('client_id=a&client_secret=***&x=1');
    expect(maskSecrets('/ats/job-offers?access_token=abc&b=2')).to.equal('/ats/job-offers?access_token=***&b=2');
    expect(maskSecrets('{"client_secret" : "a\\"b", "n": 1}')).to.equal('{"client_secret" : "***", "n": 1}');
    expect(maskHeaders({ authorization: 'Bearer xyz', cookie: 'a=b', accept: '*/*' })).to.deep.equal({ authorization: 'Bearer ***', cookie: '***', accept: '*/*' });
    // A long body is cut; a secret the cut runs through is still masked whole.
    const long = `{"d":"${'x'.repeat(BODY_LIMIT - 25)}","client_secret":"top-secret-value"}`;
    const shown = journalBody(long) ?? '';
    expect(shown).not.to.include('top-sec');
    expect(shown).to.match(/"client_secret":"\*\*\*"$/);
    expect(journalBody(Buffer.from('a'.repeat(BODY_LIMIT + 10)))).to.match(/…\(10 more bytes\)$/);
  });
});

describe('simulator: admin surface switched off or guarded', () => {
  it('answers 404 under /__admin/ when admin is off', async () => {
    const t = await startTest({ admin: false }, false);
    expect(t.sim.adminUrl).to.equal(undefined);
    const res = await t.client.get('/__admin/health');
    expect(res.status).to.equal(404);
    expect(res.body.errors).to.be.an('array');
    await t.close();
  });

  it('requires the admin token when one is set, except for health', async () => {
    const t = await startTest({ adminToken: 'let-me-in' }, false);
    const refused = await t.client.get('/__admin/journal');
    expect(refused.status).to.equal(401);
    expect(refused.body.errors).to.be.an('array');
    const allowed = await t.client.get('/__admin/journal', { headers: { 'x-rdx-admin-token': 'let-me-in' } });
    expect(allowed.status).to.equal(200);
    expect((await t.client.send('POST', '/__admin/reset', { headers: { 'x-rdx-admin-token': 'wrong' } })).status).to.equal(401);
    expect((await t.client.get('/__admin/health')).status).to.equal(200);
    await t.close();
  });

  it('shares the dashboard\'s guard: another origin or another site is refused, with the token too; health stays open', async () => {
    for (const adminToken of [undefined, 'let-me-in']) {
      const t = await startTest({ records: 20, ...(adminToken ? { adminToken } : {}) }, false);
      try {
        const token: Record<string, string> = adminToken ? { 'x-rdx-admin-token': adminToken } : {};
        const admin = `${new URL(t.sim.baseUrl).origin}/__admin`;
        const own = { ...token, origin: new URL(t.sim.baseUrl).origin, 'sec-fetch-site': 'same-origin' };
        const reference = 'JO-GUARD-1';
        await t.client.login(t.sim.options.clientId, t.sim.options.clientSecret);
        expect((await t.client.post('/ats/job-offers', [jobOffer(createFaker(5), { reference })])).status).to.equal(201);
        const refused: Record<string, string>[] = [
          { ...token, origin: 'https://evil.example' },
          { ...token, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
          // Another port of 127.0.0.1 is the same site, not the same origin.
          { ...token, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
        ];
        for (const headers of refused) {
          const what = `${adminToken ? 'with' : 'without'} a token, ${JSON.stringify(headers)}`;
          expect((await t.client.get(`${admin}/journal`, { headers })).status, `GET journal ${what}`).to.equal(401);
          const reset = await t.client.send('POST', `${admin}/reset`, { headers: { ...headers, 'x-rdx-admin': '1' } });
          expect(reset.status, `POST reset ${what}`).to.equal(401);
          expect(reset.body.errors).to.be.an('array');
          expect((await t.client.get(`${admin}/health`, { headers })).status, `GET health ${what}`).to.equal(200);
        }
        expect((await t.client.get(`/ats/job-offers/${reference}`)).status, 'a refused reset still reset the store').to.equal(200);
        expect((await t.client.get(`${admin}/journal`, { headers: own })).status, 'the page\'s own origin').to.equal(200);
        expect((await t.client.get(`${admin}/journal`, { headers: { ...token, 'sec-fetch-site': 'none' } })).status, 'typed into the address bar').to.equal(200);
        expect((await t.client.get(`${admin}/no-such-endpoint`, { headers: token })).status).to.equal(404);
        expect((await t.client.send('POST', `${admin}/reset`, { headers: { ...own, 'x-rdx-admin': '1' } })).status).to.equal(200);
        expect((await t.client.get(`/ats/job-offers/${reference}`)).status, 'reset to the seed').to.equal(404);
      } finally {
        await t.close();
      }
    }
  });

  it('generates an admin token for a host beyond loopback (options only: tests listen on loopback)', () => {
    expect(resolveOptions({ host: '0.0.0.0' }).adminToken).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect(resolveOptions({ host: '0.0.0.0', admin: false }).adminToken).to.equal(undefined);
    expect(resolveOptions({ host: '127.0.0.1' }).adminToken).to.equal(undefined);
    expect(resolveOptions({ host: '::1' }).adminToken).to.equal(undefined);
  });
});

describe('simulator: dashboard first opened after the API was used', () => {
  // The dashboard's modules load on its first request (simulator/index.ts); its live feed must still have counted
  // every request since start-up, or the ids the page shows would name other entries, or none of the earlier ones.
  it('finds the requests made before, by their ids from the start', async () => {
    const t = await startTest({ journalSize: 5 });
    const dashboard = new Client(t.sim.adminUrl?.replace(/\/$/, '') ?? '');
    try {
      await t.client.get('/ats/job-offers?reference=BEFORE-DASHBOARD');
      const entry = async (id: number): Promise<JournalEntry | undefined> => items(await dashboard.get(`/api/journal/${id}`))[0] as JournalEntry | undefined;
      expect((await entry(1))?.operationId).to.equal('requestToken');
      expect((await entry(2))?.path).to.equal('/ats/job-offers?reference=BEFORE-DASHBOARD');
      expect((await dashboard.get('/api/journal/3')).status, 'no third request yet').to.equal(404);
    } finally {
      await dashboard.close();
      await t.close();
    }
  });
});
