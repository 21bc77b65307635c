import { expect } from 'chai';
import { operations } from '../src/spec/index.js';
import { fillPath, startTest, type Harness } from '../test/support/simulator.js';

describe('simulator: authentication', () => {
  let t: Harness;
  let clock = Date.UTC(2026, 5, 1);
  before(async () => {
    t = await startTest({ tokenTtl: 60, now: () => clock });
  });
  after(() => t.close());

  const credentials = { client_id: 'rdx-client', client_secret: 'rdx-secret' };

  it('issues a bearer token for a JSON request, not cacheable', async () => {
    const res = await t.client.post('/oauth2/token', { ...credentials, grant_type: 'client_credentials' }, { anonymous: true });
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/json');
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body['token_type']).to.equal('Bearer');
    expect(res.body['expires_in']).to.equal(60);
    expect(res.body['access_token']).to.match(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts the form encoding of RFC 6749 and a missing grant_type', async () => {
    const form = await t.client.send('POST', '/oauth2/token', {
      raw: 'client_id=rdx-client&client_secret=rdx-secret&grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      anonymous: true,
    });
    expect(form.status).to.equal(200);
    const bare = await t.client.post('/oauth2/token', credentials, { anonymous: true });
    expect(bare.status).to.equal(200);
  });

  const refusals: [string, unknown, number][] = [
    ['a wrong secret', { client_id: 'rdx-client', client_secret: 'nope' }, 401],
    ['a wrong client id', { client_id: 'someone', client_secret: 'rdx-secret' }, 401],
    ['a missing secret', { client_id: 'rdx-client' }, 401],
    ['an empty object', {}, 401],
    ['another grant type', { ...credentials, grant_type: 'password' }, 400],
    ['a secret of the wrong type', { client_id: 'rdx-client', client_secret: 42 }, 400],
    ['an array', [credentials], 400],
  ];
  for (const [what, body, status] of refusals) {
    it(`refuses a token request with ${what} with the error body (${status})`, async () => {
      const res = await t.client.post('/oauth2/token', body, { anonymous: true });
      expect(res.status).to.equal(status);
      expect(res.body.message).to.be.a('string');
      expect(res.body.errors).to.be.an('array').that.is.not.empty;
      expect(res.body.errors?.[0]).to.have.property('data', null);
      expect(res.body).not.to.have.property('access_token');
    });
  }

  it('refuses malformed JSON and other media types at the token endpoint', async () => {
    const broken = await t.client.send('POST', '/oauth2/token', { raw: '{"client_id":', headers: { 'content-type': 'application/json' }, anonymous: true });
    expect(broken.status).to.equal(400);
    expect(broken.body.errors).to.be.an('array');
    const text = await t.client.send('POST', '/oauth2/token', { raw: 'client_id=x', headers: { 'content-type': 'text/plain' }, anonymous: true });
    expect(text.status).to.equal(415);
  });

  it('refuses every protected operation without a token, with a Bearer challenge', async () => {
    for (const op of operations().filter((o) => o.kind !== 'token')) {
      const res = await t.client.send(op.method, fillPath(op.path, { id: '1', name: 'x' }), {
        ...(op.requestSchema ? { body: op.requestIsArray ? [] : {} } : {}),
        anonymous: true,
      });
      expect(res.status, op.operationId).to.equal(401);
      expect(res.headers['www-authenticate'], op.operationId).to.match(/^Bearer /);
      expect(res.body.errors, op.operationId).to.be.an('array').that.is.not.empty;
    }
  });

  it('tells an unknown token, another scheme and a token in the query apart', async () => {
    const unknown = await t.client.get('/ats/job-offers', { headers: { authorization: 'Bearer not-a-token' } });
    expect(unknown.status).to.equal(401);
    expect(unknown.headers['www-authenticate']).to.include('error="invalid_token"');
    const basic = await t.client.get('/ats/job-offers', { headers: { authorization: 'Basic cmR4OnJkeA==' } });
    expect(basic.status).to.equal(401);
    expect(basic.headers['www-authenticate']).not.to.include('error=');
    const token = await t.client.login();
    const query = await t.client.get(`/ats/job-offers?access_token=${token}`, { anonymous: true });
    expect(query.status).to.equal(401);
    expect(query.body.message).to.include('Authorization header');
  });

  it('accepts a token until it expires, then refuses it as invalid_token', async () => {
    await t.client.login();
    expect((await t.client.get('/ats/job-offers')).status).to.equal(200);
    clock += 59_000;
    expect((await t.client.get('/ats/job-offers')).status).to.equal(200);
    clock += 1_000;
    const expired = await t.client.get('/ats/job-offers');
    expect(expired.status).to.equal(401);
    expect(expired.headers['www-authenticate']).to.include('error="invalid_token"');
    expect(expired.body.message).to.include('expired');
  });
});
