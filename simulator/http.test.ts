import { expect } from 'chai';
import { connect } from 'node:net';
import { jobOffer, createFaker } from '../src/data/factories.js';
import { startTest, type Harness, type Reply } from '../test/support/simulator.js';

function expectErrorBody(res: Reply, status: number): void {
  expect(res.status).to.equal(status);
  expect(res.headers['content-type']).to.equal('application/json');
  expect(res.body.message).to.be.a('string');
  expect(res.body.errors).to.be.an('array').that.is.not.empty;
  for (const item of res.body.errors ?? []) expect(item).to.have.keys('message', 'data');
}

/** Writes raw bytes on a socket and reads what comes back until the server closes. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('simulator: HTTP edges', () => {
  let t: Harness;
  before(async () => {
    t = await startTest({ maxBodyBytes: 2_048 });
  });
  after(() => t.close());

  it('answers malformed JSON with 400 and the error body', async () => {
    expectErrorBody(await t.client.send('POST', '/ats/job-offers', { raw: '[{"title": ', headers: { 'content-type': 'application/json' } }), 400);
    expectErrorBody(await t.client.send('PATCH', '/ats/job-offers/JO-2026-000001', { raw: '{', headers: { 'content-type': 'application/json' } }), 400);
  });

  it('answers a body that is not application/json with 415', async () => {
    const res = await t.client.send('POST', '/ats/job-offers', { raw: '[]', headers: { 'content-type': 'text/plain' } });
    expectErrorBody(res, 415);
    expectErrorBody(await t.client.send('PUT', '/users', { raw: '[]' }), 415);
  });

  it('answers a missing body with 400', async () => {
    expectErrorBody(await t.client.send('PATCH', '/ats/job-offers/JO-2026-000001', { headers: { 'content-type': 'application/json' } }), 400);
  });

  it('answers an oversized body with 413 and stores nothing', async () => {
    const faker = createFaker(3);
    const big = Array.from({ length: 40 }, () => jobOffer(faker));
    const before = t.store.jobOffers.size;
    expectErrorBody(await t.client.post('/ats/job-offers', big), 413);
    expect(t.store.jobOffers.size).to.equal(before);
  });

  it('answers 413 from the Content-Length alone, without reading the body', async () => {
    const port = new URL(t.sim.baseUrl).port;
    const text = await rawExchange(Number(port), `POST /ats/job-offers HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${t.client.token ?? ''}\r\ncontent-type: application/json\r\ncontent-length: 999999999\r\n\r\n[`);
    expect(text).to.match(/^HTTP\/1\.1 413 /);
    expect(text).to.include('"errors"');
  });

  it('answers an unknown route with 404 and a wrong method with 405 and Allow', async () => {
    expectErrorBody(await t.client.get('/ats/nothing-here'), 404);
    expectErrorBody(await t.client.get('/ats/job-offers/JO-2026-000001/extra/segments'), 404);
    const wrong = await t.client.delete('/ats/job-offers');
    expectErrorBody(wrong, 405);
    expect(wrong.headers['allow']).to.equal('POST, GET, HEAD');
    expect((await t.client.send('POST', '/ats/job-offers/x')).headers['allow']).to.equal('GET, PUT, PATCH, HEAD');
  });

  it('answers a malformed percent-encoding in a path parameter with 400', async () => {
    expectErrorBody(await t.client.get('/ats/job-offers/%E0%A4%A'), 400);
  });

  it('answers an HTTP request it cannot parse with a JSON 400, not HTML', async () => {
    const port = Number(new URL(t.sim.baseUrl).port);
    const text = await rawExchange(port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(text).to.match(/^HTTP\/1\.1 400 /);
    expect(text).to.include('content-type: application/json');
    expect(text).to.include('"errors":[{"message"');
  });

  it('keeps serving after all of that', async () => {
    expect((await t.client.get('/ats/job-offers')).status).to.equal(200);
  });
});

describe('simulator: seeded data', () => {
  it('gives byte-identical responses for the same seed across two fresh starts', async () => {
    const bodies: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const t = await startTest({ seed: 5, records: 500, pageSize: 10 });
      const headers = { host: 'simulator.test' };
      const paths = ['/ats/job-offers', '/ats/job-offers/JO-2026-000042', '/jobboard/activities?status=applied', '/ats/application-steps/17'];
      bodies.push(await Promise.all(paths.map(async (p) => (await t.client.get(p, { headers })).text)));
      await t.close();
    }
    expect(bodies[0]).to.deep.equal(bodies[1]);
    expect(bodies[0]?.[2]).to.include('http://simulator.test/jobboard/activities?status=applied&cursor=');
  });

  it('gives different data for another seed', async () => {
    const a = await startTest({ seed: 1, records: 50 }, false);
    const b = await startTest({ seed: 2, records: 50 }, false);
    expect(a.store.jobOffers.values()).not.to.deep.equal(b.store.jobOffers.values());
    await a.close();
    await b.close();
  });
});
