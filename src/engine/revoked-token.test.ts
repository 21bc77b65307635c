// A target that revokes the run's token before it expires: every request that carries the run's token (a step, an
// id lookup, the end-of-run sweep) goes through the token provider, which sends it once more with a fresh token.
import { expect } from 'chai';
import { createServer } from 'node:http';
import { HttpClient } from '../http/client.js';
import { TokenProvider } from '../http/auth.js';
import { Secrets } from '../http/redact.js';
import type { ResidueEntry } from '../core/results.js';
import { listenOnLoopback, type LoopbackServer } from '../../test/support/loopback.js';
import { IdSourceSet } from './id-sources.js';
import { sweepResidue } from './sweep.js';

/** Issues tok-1, tok-2, …; revoke() makes every token issued so far invalid. */
async function revokingTarget(): Promise<{ server: LoopbackServer; revoke: () => void; issued: () => number; refused: string[] }> {
  const valid = new Set<string>();
  const refused: string[] = [];
  let issued = 0;
  const server = await listenOnLoopback(createServer((req, res) => {
    req.resume();
    const json = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/oauth2/token') {
      const token = `tok-${++issued}`;
      valid.add(token);
      return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!valid.has(token)) {
      refused.push(`${req.method ?? ''} ${req.url ?? ''}`);
      return json(401, { message: 'token revoked', errors: [{ message: 'invalid_token', data: null }] });
    }
    if (req.method === 'GET' && req.url?.startsWith('/ids?')) return json(200, { id: 4711 });
    if (req.method === 'DELETE') return void res.writeHead(204).end();
    return json(404, { message: 'not found', errors: [] });
  }));
  return { server, revoke: () => valid.clear(), issued: () => issued, refused };
}

describe('a target that revokes the run\'s token mid-run', function () {
  this.timeout(20_000);
  let target: Awaited<ReturnType<typeof revokingTarget>>;
  let http: HttpClient;
  let tokens: TokenProvider;
  beforeEach(async () => {
    target = await revokingTarget();
    http = new HttpClient({ timeoutMs: 2000, maxResponseBytes: 1 << 20, retries: 0, insecure: false, origins: [target.server.url] });
    tokens = new TokenProvider(http, `${target.server.url}/oauth2/token`, { clientId: 'id', clientSecret: 'secret', grantType: 'client_credentials' }, new Secrets());
  });
  afterEach(async () => {
    await http.close();
    await target.server.close();
  });

  it('an id source\'s lookup is sent again with a fresh token', async () => {
    const ids = new IdSourceSet({ 'job-offer': { url: `${target.server.url}/ids?reference={reference}` } }, { baseUrl: target.server.url, tokens });
    expect(await ids.learn('job-offer', { reference: 'R1' })).to.deep.equal({ id: '4711' });
    target.revoke();
    expect(await ids.learn('job-offer', { reference: 'R2' })).to.deep.equal({ id: '4711' });
    expect(target.refused).to.deep.equal(['GET /ids?reference=R2']);
    expect(target.issued()).to.equal(2);
  });

  it('the sweep deletes every record, side by side, after one fresh token', async () => {
    await tokens.token();
    target.revoke();
    const entry = (id: number): ResidueEntry => ({ resource: 'jobboard-job-offer', operationId: 'batchCreateJobboardJobOffers', id, caseId: 'c', createdAt: '', deleted: false });
    const ledger = [entry(1), entry(2), entry(3)];
    const outcome = await sweepResidue(ledger, tokens, target.server.url, 3);
    expect(outcome).to.include({ records: 3, deleted: 3 });
    expect(ledger.every((e) => e.deleted)).to.equal(true);
    // The three refusals of the revoked token share one new token: the provider forgets only the token refused.
    expect(target.issued()).to.equal(2);
  });
});

describe('a token that has expired, from the token provider', function () {
  this.timeout(20_000);
  const withAnswers = async (status: number, expiresIn: number, check: (tokens: TokenProvider) => Promise<void>): Promise<void> => {
    let issued = 0;
    const server = await listenOnLoopback(createServer((req, res) => {
      req.resume();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `tok-${++issued}`, expires_in: expiresIn }));
    }));
    const http = new HttpClient({ timeoutMs: 2000, maxResponseBytes: 1 << 20, retries: 0, insecure: false, origins: [server.url] });
    try {
      await check(new TokenProvider(http, `${server.url}/oauth2/token`, { clientId: 'id', clientSecret: 'secret', grantType: null }, new Secrets(), 'milliseconds'));
    } finally {
      await http.close();
      await server.close();
    }
  };

  it('is a fresh token waited out when it lives 5 s or less, in the profile\'s unit', async () => {
    await withAnswers(200, 50, async (tokens) => {
      const started = Date.now();
      expect(await tokens.expiredToken()).to.equal('tok-1');
      expect(Date.now() - started).to.be.at.least(1000);
    });
  });

  it('is none when tokens live longer, or the answer is no token (a refusal that carries one included)', async () => {
    await withAnswers(200, 60_000, async (tokens) => {
      expect(await tokens.expiredToken()).to.deep.equal({ unavailable: 'tokens live 60000 milliseconds; too long to wait for one to expire (give fixtures.expiredToken in the profile)' });
    });
    await withAnswers(400, 50, async (tokens) => {
      expect(await tokens.expiredToken()).to.deep.equal({ unavailable: 'no token to let expire' });
    });
  });
});
