// The simulator against clients that send what a well-behaved one never would: bytes that are not UTF-8, HEAD,
// credentials in every spelling the journal might miss, and more tokens than it keeps. Each test is a regression
// of issue #15.
import { expect } from 'chai';
import { request } from 'undici';
import { createFaker, jobOffer } from '../src/data/factories.js';
import { items, startTest, type Harness } from '../test/support/simulator.js';

/** Sends raw bytes as the body, so that invalid UTF-8 reaches the simulator as it is. */
async function sendBytes(
  t: Harness, method: string, path: string, type: string, body: Buffer, auth = true,
): Promise<{ status: number; body: { message?: string; errors?: unknown[] } }> {
  const res = await request(`${t.sim.baseUrl}${path}`, {
    method: method as 'POST',
    headers: { 'content-type': type, ...(auth && t.client.token ? { authorization: `Bearer ${t.client.token}` } : {}) },
    body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: JSON.parse(text) as { message?: string; errors?: unknown[] } };
}

describe('simulator: bodies that are not UTF-8', () => {
  let t: Harness;
  before(async () => {
    t = await startTest({ records: 20 });
  });
  after(() => t.close());

  it('refuses JSON with invalid UTF-8 bytes with 400 and the error body, instead of replacing them with U+FFFD', async () => {
    const before = t.store.counts();
    const offer = JSON.stringify([jobOffer(createFaker(5), { reference: 'INV-@' })]);
    for (const bad of [0xff, 0xfe, 0xc0]) {
      const bytes = Buffer.from(offer, 'utf8');
      bytes[bytes.indexOf('@')] = bad;
      const res = await sendBytes(t, 'POST', '/ats/job-offers', 'application/json', bytes);
      expect(res.status, `byte 0x${bad.toString(16)}`).to.equal(400);
      expect(res.body.message).to.match(/not valid UTF-8/);
      expect(res.body.errors).to.be.an('array');
    }
    // A truncated multi-byte sequence at the very end is not UTF-8 either.
    const truncated = Buffer.concat([Buffer.from('[{"reference":"INV-'), Buffer.from([0xe2, 0x82])]);
    expect((await sendBytes(t, 'POST', '/ats/job-offers', 'application/json', truncated)).status).to.equal(400);
    expect(t.store.counts()).to.deep.equal(before);
    expect(t.store.jobOffers.values().some((o) => o.reference.includes('\ufffd'))).to.equal(false);
  });

  it('still takes valid UTF-8, multi-byte characters included', async () => {
    const res = await sendBytes(t, 'POST', '/ats/job-offers', 'application/json', Buffer.from(JSON.stringify([jobOffer(createFaker(6), { reference: 'INV-é日🎉' })]), 'utf8'));
    expect(res.status).to.equal(201);
    expect(items(await t.client.get(`/ats/job-offers/${encodeURIComponent('INV-é日🎉')}`))).to.have.length(1);
  });

  it('refuses a query string whose percent-escapes are not UTF-8, and still reads one that is', async () => {
    for (const bad of ['%FF', '%FE', '%C3', '%E2%82', 'x%C0%AF']) {
      const res = await t.client.get(`/ats/job-offers?reference=INV-${bad}`);
      expect(res.status, bad).to.equal(400);
      expect((res.body as { message?: string }).message, bad).to.match(/not UTF-8/);
    }
    // Escapes that decode (é, 日) and text that is not an escape at all (a lone %) are read as before.
    expect((await t.client.get('/ats/job-offers?reference=INV-%C3%A9%E6%97%A5')).status).to.equal(200);
    expect((await t.client.get('/ats/job-offers?reference=50%')).status).to.equal(200);
  });

  it('refuses a token request whose form body is not UTF-8, raw or percent-encoded', async () => {
    const { clientId } = t.sim.options;
    const raw = Buffer.concat([Buffer.from(`grant_type=client_credentials&client_id=${clientId}&client_secret=`), Buffer.from([0xff])]);
    const form = 'application/x-www-form-urlencoded';
    expect((await sendBytes(t, 'POST', '/oauth2/token', form, raw, false)).status).to.equal(400);
    expect((await sendBytes(t, 'POST', '/oauth2/token', form, Buffer.from(`grant_type=client_credentials&client_id=${clientId}&client_secret=%FF`), false)).status).to.equal(400);
  });
});

describe('simulator: HEAD', () => {
  let t: Harness;
  before(async () => {
    t = await startTest({ records: 20 });
  });
  after(() => t.close());

  it('answers HEAD on a GET endpoint as GET without a body (RFC 9110 §9.3.2)', async () => {
    const reference = t.store.jobOffers.values()[0]?.reference ?? '';
    for (const path of ['/ats/job-offers', `/ats/job-offers/${encodeURIComponent(reference)}`, '/jobboard/activities']) {
      const get = await t.client.get(path);
      const head = await t.client.send('HEAD', path);
      expect(head.status, path).to.equal(get.status).and.to.equal(200);
      expect(head.text, path).to.equal('');
      expect(head.headers['content-type']).to.equal(get.headers['content-type']);
      expect(head.headers['content-length']).to.equal(String(Buffer.byteLength(get.text)));
    }
    // Authentication applies as to GET.
    expect((await t.client.send('HEAD', '/ats/job-offers', { anonymous: true })).status).to.equal(401);
    // Not on an endpoint without GET, and the Allow header names HEAD where GET is.
    const post = await t.client.send('HEAD', '/oauth2/token');
    expect(post.status).to.equal(405);
    expect(post.headers['allow']).to.equal('POST');
    expect((await t.client.send('DELETE', '/ats/job-offers')).headers['allow']).to.include('HEAD');
  });

  it('answers HEAD on the admin health check', async () => {
    const res = await t.client.send('HEAD', `${t.sim.adminUrl ?? ''}health`);
    expect(res.status).to.equal(200);
    expect(res.text).to.equal('');
  });
});

/** Everything the dashboard's live stream sends first (its snapshot of the journal), as text. */
async function streamSnapshot(adminUrl: string): Promise<string> {
  const controller = new AbortController();
  const res = await request(`${adminUrl}api/events`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  let text = '';
  try {
    for await (const chunk of res.body) {
      text += (chunk as Buffer).toString('utf8');
      if (/event: journal\ndata: .*\n\n/.test(text)) break;
    }
  } finally {
    controller.abort();
  }
  return text;
}

describe('simulator: the journal masks credentials however they are spelled', function () {
  this.timeout(20_000);
  const SECRET = 'journal-secret-5a1f93c7e2';
  /** Not the client secret: the journal cannot know it by value, only by where it stands. */
  const GUESS = 'guessed-secret-0b7d44aa18';
  let t: Harness;
  before(async () => {
    t = await startTest({ records: 10, clientSecret: SECRET });
  });
  after(() => t.close());

  it('shows no secret and no issued token in the journal, the dashboard entry or the live stream', async () => {
    const id = t.sim.options.clientId;
    const token = t.client.token as string;
    const json = 'application/json';
    const form = 'application/x-www-form-urlencoded';
    const tokenRequests: [string, string][] = [];
    for (const secret of [SECRET, GUESS]) {
      tokenRequests.push(
        [json, `{"client_id":"${id}","client\\u005fsecret":"${secret}","grant_type":"client_credentials"}`],
        [json, `{"client_id":"${id}","Client_Secret":"${secret}","grant_type":"client_credentials"}`],
        [json, `{"client_id":"${id}","client_secret":["${secret}"],"grant_type":"client_credentials"}`],
        [json, `{"client_id":"${id}","CLIENT_SECRET":{"value":"${secret}"},"grant_type":"client_credentials"}`],
        [json, `{"client_id":"${id}","client\\u005Fsecret":"${secret}",`], // malformed: masked as text
        [form, `grant_type=client_credentials&client_id=${id}&client%5Fsecret=${encodeURIComponent(secret)}`],
        [form, `grant_type=client_credentials&client_id=${id}&Client_Secret=${secret}`],
        [form, `grant_type=client_credentials&client_id=${id}&client_secret%5B%5D=${secret}`],
      );
    }
    const accepted: number[] = [];
    for (const [type, body] of tokenRequests) accepted.push((await sendBytes(t, 'POST', '/oauth2/token', type, Buffer.from(body), false)).status);
    expect(accepted[0], 'the token endpoint reads client\\u005fsecret as client_secret, as JSON says').to.equal(200);
    const queries = [
      `/oauth2/token?client_secret=${GUESS}`, `/ats/job-offers?Client_Secret=${GUESS}`, `/ats/job-offers?client%5Fsecret=${GUESS}`,
      `/ats/job-offers?ACCESS_TOKEN=${token}`, `/ats/job-offers?q=${token}`, `/ats/job-offers/${token}`, `/ats/job-offers?x=${encodeURIComponent(SECRET)}`,
    ];
    for (const path of queries) await t.client.get(path, { anonymous: true });
    for (const authorization of [token, `Bearer\t${token}`, `Bearer${token}`, `bearer ${token}`, `Token ${token}`, `Basic ${Buffer.from(`${id}:${SECRET}`).toString('base64')}`]) {
      await t.client.get('/ats/job-offers', { headers: { authorization } });
    }
    await t.client.get('/ats/job-offers', { headers: { 'x-forwarded-token': token, 'x-note': `secret is ${SECRET}` } });
    await t.client.post('/ats/job-offers', [{ reference: token, title: SECRET }]);

    const admin = t.sim.adminUrl ?? '';
    const journal = await t.client.get(`${admin}journal`, { anonymous: true });
    expect(journal.status).to.equal(200);
    const entries = journal.body.data as { requestHeaders: Record<string, string> }[];
    const lastId = (await streamSnapshot(admin)).match(/"id":(\d+)/g)?.map((m) => Number(m.slice(5))) ?? [];
    const detail = await t.client.get(`${admin}api/journal/${Math.max(...lastId)}`, { anonymous: true });
    const stream = await streamSnapshot(admin);
    const shown = { journal: journal.text, dashboardEntry: detail.text, stream, json: JSON.stringify(t.journal.entries()) };
    for (const [where, text] of Object.entries(shown)) {
      for (const secret of [SECRET, encodeURIComponent(SECRET), GUESS, token, Buffer.from(`${id}:${SECRET}`).toString('base64')]) {
        expect(text, `${where} shows ${secret}`).to.not.include(secret);
      }
    }
    expect(shown.stream).to.match(/event: journal/);
    // The scheme word of a recognised scheme stays; anything else is masked whole.
    const auth = entries.map((e) => e.requestHeaders['authorization']).filter((a): a is string => a !== undefined);
    expect(auth).to.include.members(['***', 'Bearer ***', 'bearer ***', 'Basic ***']);
    expect(auth.some((a) => a.startsWith('Token'))).to.equal(false);
  });

  it('still shows what is not a secret', async () => {
    await t.client.get('/ats/job-offers?reference=JO-1&limit=2');
    const entries = t.journal.entries(1);
    expect(entries[0]?.path).to.equal('/ats/job-offers?reference=JO-1&limit=2');
    expect(entries[0]?.requestHeaders['authorization']).to.equal('Bearer ***');
  });
});

describe('simulator: the token cap', () => {
  it('evicts expired tokens first, the oldest live one only when none has expired, and says so in the journal', async () => {
    let now = Date.parse('2026-11-24T08:00:00Z');
    const t = await startTest({ records: 0, maxTokens: 3, tokenTtl: 60, now: () => now }, false);
    try {
      const login = async (): Promise<string> => t.client.login(t.sim.options.clientId, t.sim.options.clientSecret);
      const valid = async (token: string): Promise<boolean> => (await t.client.get('/ats/job-offers', { headers: { authorization: `Bearer ${token}` } })).status === 200;
      const expired = t.sim.expiredToken();
      const first = await login();
      const second = await login();
      // Full (3): the expired fixture goes, the first live token stays.
      const third = await login();
      expect(t.journal.entries(1)[0]?.note).to.match(/full \(3 tokens\): evicted 1 expired token\(s\) to make room/);
      expect(await valid(first), 'the oldest live token was evicted while an expired one was kept').to.equal(true);
      expect(await valid(expired)).to.equal(false);
      // Full again, none expired: the oldest live one goes, and the journal says so.
      const fourth = await login();
      expect(t.journal.entries(1)[0]?.note).to.match(/evicted 1 live token\(s\), the oldest \(none had expired\)/);
      expect(await valid(first)).to.equal(false);
      for (const token of [second, third, fourth]) expect(await valid(token)).to.equal(true);
      // Time passes: all three expire, and the next token makes room by evicting them, not a live one.
      now += 61_000;
      const fifth = await login();
      expect(t.journal.entries(1)[0]?.note).to.match(/evicted 3 expired token\(s\) to make room/);
      expect(await valid(fifth)).to.equal(true);
      // Room is left now: the next token evicts nothing.
      await login();
      expect(t.journal.entries(1)[0]?.note).to.equal(undefined);
    } finally {
      await t.close();
    }
  });
});
