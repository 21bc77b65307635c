// The simulator against clients that send what a well-behaved one never would: bytes that are not UTF-8, HEAD,
// credentials in every spelling the journal might miss, and more tokens than it keeps. Each test is a regression
// of issue #15.
import { expect } from 'chai';
import { request } from 'undici';
import { createFaker, jobOffer } from '../src/data/factories.js';
import { items, startTest, type Harness } from './test-support.js';

/** Sends raw bytes as the body, so that invalid UTF-8 reaches the simulator as it is. */
async function sendBytes(t: Harness, method: string, path: string, type: string, body: Buffer, auth = true): Promise<{ status: number; body: { message?: string; errors?: unknown[] } }> {
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
    const before = t.sim.store.counts();
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
    expect(t.sim.store.counts()).to.deep.equal(before);
    expect(t.sim.store.jobOffers.values().some((o) => o.reference.includes('\ufffd'))).to.equal(false);
  });

  it('still takes valid UTF-8, multi-byte characters included', async () => {
    const res = await sendBytes(t, 'POST', '/ats/job-offers', 'application/json', Buffer.from(JSON.stringify([jobOffer(createFaker(6), { reference: 'INV-é日🎉' })]), 'utf8'));
    expect(res.status).to.equal(201);
    expect(items(await t.client.get(`/ats/job-offers/${encodeURIComponent('INV-é日🎉')}`))).to.have.length(1);
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
    const reference = t.sim.store.jobOffers.values()[0]?.reference ?? '';
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
