// Rate limits, resets and content coding, against loopback servers that behave like real vendors' APIs.
import { expect } from 'chai';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { HttpClient } from './client.js';
import { TokenError, TokenProvider } from './auth.js';
import { Secrets } from './redact.js';
import { RateLimiter, backoffMs, httpDate, isThrottled, retryAfterMs } from './throttle.js';
import { listenOnLoopback, type LoopbackServer } from '../../test/support/loopback.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A loopback server that reads each request's body, then hands it to the handler for its path. */
async function serve(handlers: Record<string, Handler>): Promise<LoopbackServer> {
  return listenOnLoopback(createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const h = handlers[(req.url ?? '').split('?')[0] ?? ''];
      if (h) h(req, res, Buffer.concat(chunks).toString('utf8'));
      else res.writeHead(404).end();
    });
  }));
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const envelope = { message: 'Too many requests', errors: [{ message: 'slow down', data: null }] };

describe('throttled answers: waited out and sent again', () => {
  it('reads Retry-After as delay-seconds and as an HTTP-date, against the answer\'s own Date', () => {
    expect(retryAfterMs({ 'retry-after': '3' })).to.equal(3000);
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
    expect(httpDate(date)).to.equal(Date.UTC(2026, 9, 21, 7, 28, 0));
    expect(retryAfterMs({ 'retry-after': 'Wed, 21 Oct 2026 07:28:02 GMT', date })).to.equal(2000);
    // Without a Date header, against our clock; a date in the past means at once.
    expect(retryAfterMs({ 'retry-after': date }, Date.UTC(2026, 9, 21, 7, 27, 58))).to.equal(2000);
    expect(retryAfterMs({ 'retry-after': date }, Date.UTC(2027, 0, 1))).to.equal(0);
    expect(retryAfterMs({ 'retry-after': 'soon' })).to.equal(undefined);
    expect(retryAfterMs({})).to.equal(undefined);
  });

  it('backs off exponentially with jitter when the answer does not say when', () => {
    expect(backoffMs(0, () => 0)).to.equal(250);
    expect(backoffMs(0, () => 1)).to.equal(500);
    expect(backoffMs(3, () => 0)).to.equal(2000);
    expect(backoffMs(3, () => 1)).to.equal(4000);
  });

  it('counts a 429 and a 503 with Retry-After as throttled, a bare 503 as an answer', () => {
    expect(isThrottled(429, {})).to.equal(true);
    expect(isThrottled(503, { 'retry-after': '1' })).to.equal(true);
    expect(isThrottled(503, {})).to.equal(false);
    expect(isThrottled(500, { 'retry-after': '1' })).to.equal(false);
  });

  it('paces requests to the ceiling, slows down after a throttled answer and speeds up slowly', async () => {
    let now = 0;
    const limiter = new RateLimiter(10, () => now);
    expect(await limiter.acquire()).to.equal(0);
    // The second request at the same instant waits a tenth of a second (10 per second); the clock is ours.
    const next = limiter.acquire();
    now = 100;
    expect(await next).to.equal(100);
    limiter.slowDown();
    expect(limiter.current).to.equal(7);
    // A second throttled answer within the second is the same overload: one decrease per period.
    limiter.slowDown();
    expect(limiter.current).to.equal(7);
    limiter.relax();
    expect(limiter.current).to.be.above(7).and.below(7.2);
    for (let i = 0; i < 1000; i++) limiter.relax();
    expect(limiter.current).to.equal(10);
    const free = new RateLimiter(undefined, () => now);
    expect(free.current).to.equal(undefined);
    free.relax();
    expect(free.current).to.equal(undefined);
  });

  describe('against a rate-limited server', () => {
    let target: LoopbackServer;
    let hits: Record<string, number> = {};
    const hit = (path: string): number => (hits[path] = (hits[path] ?? 0) + 1);
    before(async () => {
      target = await serve({
        '/seconds': (_q, res) => (hit('/seconds') < 3 ? json(res, 429, envelope, { 'retry-after': '0' }) : json(res, 200, { message: 'ok', data: [] })),
        '/second': (_q, res) => (hit('/second') <= 3 ? json(res, 429, envelope, { 'retry-after': '1' }) : json(res, 200, { message: 'ok', data: [] })),
        '/date': (_q, res) => {
          const now = new Date();
          const at = new Date(now.getTime() - 1000); // already past: go at once
          if (hit('/date') < 2) json(res, 429, envelope, { 'retry-after': at.toUTCString(), date: now.toUTCString() });
          else json(res, 200, { message: 'ok', data: [] });
        },
        '/unavailable': (_q, res) => (hit('/unavailable') < 2 ? json(res, 503, envelope, { 'retry-after': '0' }) : json(res, 201, { message: 'created', data: [{ id: 1 }] })),
        '/unavailable-put': (_q, res) => (hit('/unavailable-put') < 2 ? json(res, 503, envelope, { 'retry-after': '0' }) : json(res, 201, { message: 'created', data: [{ id: 1 }] })),
        '/plain': (_q, res) => (hit('/plain') < 2 ? res.writeHead(429, { 'content-type': 'text/plain' }).end('Too Many Requests') : json(res, 200, { message: 'ok', data: [] })),
        '/forever': (_q, res) => { hit('/forever'); json(res, 429, envelope, { 'retry-after': '0' }); },
        '/long': (_q, res) => { hit('/long'); json(res, 429, envelope, { 'retry-after': '3600' }); },
        '/bare503': (_q, res) => { hit('/bare503'); json(res, 503, envelope); },
      });
    });
    beforeEach(() => {
      hits = {};
    });
    after(() => target.close());

    const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient => new HttpClient({
      origins: [target.url], timeoutMs: 2000, maxResponseBytes: 64 * 1024,
      endpointOf: (_m, url) => new URL(url).pathname.slice(1), ...extra,
    });

    it('waits out 429s with Retry-After in seconds and returns the real answer, counting each per endpoint', async () => {
      const http = client();
      const ex = await http.send('get', { method: 'GET', url: `${target.url}/seconds` });
      expect(ex.response?.status).to.equal(200);
      expect(ex.throttled?.answers).to.equal(2);
      expect(hits['/seconds']).to.equal(3);
      const stats = http.transportStats();
      expect(stats.throttled).to.deep.equal({ seconds: 2 });
      // Adaptive slowing: the run now holds itself to a pace.
      expect(stats.rateLimit).to.be.a('number');
      const answers = http.takeThrottled();
      expect(answers.map((a) => a.exchange.response?.status)).to.deep.equal([429, 429]);
      expect(http.takeThrottled()).to.deep.equal([]);
    });

    it('counts the waits of requests side by side once, in wall-clock time, in its stats and in waitingMs', async () => {
      const http = client();
      const answers = await Promise.all([1, 2, 3].map(() => http.send('get', { method: 'GET', url: `${target.url}/second` })));
      expect(answers.map((ex) => ex.response?.status)).to.deep.equal([200, 200, 200]);
      // Three waits of a second each, side by side: about 1 s of the run spent waiting, not the 3 s they add up to
      // (a report once said 480 s waited in a 20 s run). Each exchange keeps its own wait.
      expect(http.transportStats().waitedMs).to.be.at.least(1000).and.below(3000);
      expect(http.waitingMs()).to.be.at.least(1000).and.below(3000);
      expect(answers.map((ex) => ex.throttled?.waitedMs)).to.deep.equal([1000, 1000, 1000]);
    });

    it('waits out a Retry-After given as an HTTP-date', async () => {
      const ex = await client().send('get', { method: 'GET', url: `${target.url}/date` });
      expect(ex.response?.status).to.equal(200);
      expect(hits['/date']).to.equal(2);
    });

    it('never sends a POST again after a 503 (a gateway may have stored it): no answer; a PUT is waited out and sent again', async () => {
      const ex = await client().send('post', { method: 'POST', url: `${target.url}/unavailable`, body: '{}' });
      expect(ex.response).to.equal(undefined);
      expect(ex.transportError?.kind).to.equal('throttled');
      expect(ex.transportError?.message).to.include('503').and.include('not sent again');
      expect(hits['/unavailable']).to.equal(1);
      const put = await client().send('put', { method: 'PUT', url: `${target.url}/unavailable-put`, body: '{}' });
      expect(put.response?.status).to.equal(201);
      expect(hits['/unavailable-put']).to.equal(2);
      const bare = await client().send('post', { method: 'POST', url: `${target.url}/bare503`, body: '{}' });
      expect(bare.response?.status).to.equal(503);
      expect(hits['/bare503']).to.equal(1);
    });

    it('keeps a plain-text 429 for judging, and still waits it out', async () => {
      const http = client();
      const ex = await http.send('get', { method: 'GET', url: `${target.url}/plain` });
      expect(ex.response?.status).to.equal(200);
      const [answer] = http.takeThrottled();
      expect(answer?.exchange.response?.body).to.equal('Too Many Requests');
      expect(answer?.endpoint).to.equal('plain');
    });

    it('gives up after a bounded number of throttled answers: no answer, never a 429 judged as the answer', async () => {
      const http = client();
      const ex = await http.send('get', { method: 'GET', url: `${target.url}/forever` });
      expect(ex.response).to.equal(undefined);
      expect(ex.transportError?.kind).to.equal('throttled');
      expect(hits['/forever']).to.equal(12);
      expect(http.transportStats().gaveUp).to.equal(1);
    });

    it('cuts a long Retry-After at maxWaitMs and stops at the run\'s total wait budget, the slowed pace counted in it', async () => {
      const http = client({ throttle: { maxWaitMs: 20, maxTotalWaitMs: 50 } });
      const ex = await http.send('get', { method: 'GET', url: `${target.url}/long` });
      expect(ex.transportError?.kind).to.equal('throttled');
      // 20 ms waited, then the pace slowed after the 429 (a seventh of a second between requests) spends the rest of
      // the 50 ms budget: the second throttled answer is given up.
      expect(hits['/long']).to.equal(2);
      expect(ex.throttled?.waitedMs).to.equal(20);
      expect(http.waitingMs()).to.be.at.least(50);
    });

    it('stops waiting at once when the run is halted (--deadline)', async () => {
      const halt = new AbortController();
      const http = client({ halt: halt.signal });
      const pending = http.send('get', { method: 'GET', url: `${target.url}/long` });
      setTimeout(() => halt.abort('deadline'), 50);
      const ex = await pending;
      expect(ex.transportError?.kind).to.equal('stopped');
      expect(hits['/long']).to.equal(1);
    });
  });
});

describe('connection resets: only requests safe to repeat are sent again', () => {
  let target: LoopbackServer;
  let stored: string[] = [];
  before(async () => {
    // Stores the record, then breaks the connection before answering: the client cannot know it was stored.
    target = await serve({
      '/records': (req, _res, body) => {
        stored.push(`${req.method} ${body}`);
        req.socket.destroy();
      },
      '/oauth2/token': (req, _res, body) => {
        stored.push(`${req.method} token ${body.length}`);
        req.socket.destroy();
      },
    });
  });
  beforeEach(() => {
    stored = [];
  });
  after(() => target.close());
  const client = (): HttpClient => new HttpClient({ origins: [target.url], timeoutMs: 2000, maxResponseBytes: 1024, retries: 3 });

  for (const method of ['POST', 'PATCH']) {
    it(`never sends a ${method} twice after a reset that came after the server stored it: "no answer"`, async () => {
      const ex = await client().send('create', { method, url: `${target.url}/records`, body: '{"reference":"A"}' });
      expect(stored).to.deep.equal([`${method} {"reference":"A"}`]);
      expect(ex.response).to.equal(undefined);
      expect(ex.transportError?.message).to.match(new RegExp(`not sent again: a ${method} is not safe to repeat`));
    });
  }

  for (const method of ['GET', 'PUT', 'DELETE']) {
    it(`sends a ${method} again after a reset, as many times as asked`, async () => {
      await client().send('x', { method, url: `${target.url}/records`, ...(method === 'PUT' ? { body: '{}' } : {}) });
      expect(stored).to.have.length(4);
    });
  }

  it('never sends the token request twice either', async () => {
    const http = client();
    const tokens = new TokenProvider(http, `${target.url}/oauth2/token`, { clientId: 'id', clientSecret: 'secret-value', grantType: 'client_credentials' }, new Secrets());
    let error: unknown;
    try {
      await tokens.token();
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TokenError);
    expect(stored).to.have.length(1);
  });
});

/** body gzipped `layers` times. */
function stackedGzip(body: string, layers: number): Buffer {
  let bytes = Buffer.from(body);
  for (let i = 0; i < layers; i++) bytes = gzipSync(bytes, { level: 1 });
  return bytes;
}

describe('content coding: decoded within the cap', () => {
  let target: LoopbackServer;
  const body = JSON.stringify({ message: 'ok', data: [{ reference: 'R-1', title: 'x'.repeat(2000) }] });
  const seen: Record<string, string | undefined> = {};
  before(async () => {
    const coded = (encoding: string, bytes: Buffer): Handler => (req, res) => {
      seen[encoding] = req.headers['accept-encoding'];
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(bytes);
    };
    target = await serve({
      '/gzip': coded('gzip', gzipSync(body)),
      '/deflate': coded('deflate', deflateSync(body)),
      '/raw-deflate': coded('deflate', deflateRawSync(body)),
      '/br': coded('br', brotliCompressSync(body)),
      '/twice': coded('deflate, gzip', gzipSync(deflateSync(body))),
      // 64 MiB of zeros in about 64 KiB: a decompression bomb.
      '/bomb': coded('gzip', gzipSync(Buffer.alloc(64 * 1024 * 1024))),
      '/unlabelled': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(gzipSync(body)),
      '/mislabelled': coded('gzip', Buffer.from(body)),
      '/zstd': coded('zstd', Buffer.from(body)),
      '/empty': coded('gzip', Buffer.alloc(0)),
      // 3,200 stacked gzip layers of a small body, named in 16 KB of header: minutes of CPU to undo, once (issue 36).
      '/stacked': coded(Array.from({ length: 3200 }, () => 'gzip').join(','), stackedGzip(body, 3200)),
      '/proto': coded('__proto__', Buffer.from(body)),
      '/constructor': coded('constructor', Buffer.from(body)),
    });
  });
  after(() => target.close());
  const client = (): HttpClient => new HttpClient({ origins: [target.url], timeoutMs: 5000, maxResponseBytes: 256 * 1024 });

  for (const [path, coding] of [['gzip', 'gzip'], ['deflate', 'deflate'], ['raw-deflate', 'deflate'], ['br', 'br'], ['twice', 'deflate, gzip']] as const) {
    it(`decodes ${path} and records the coding in the exchange`, async () => {
      const ex = await client().send(path, { method: 'GET', url: `${target.url}/${path}` });
      expect(ex.response?.bodyProblem).to.equal(undefined);
      expect(ex.response?.json).to.deep.equal(JSON.parse(body));
      expect(ex.response?.contentEncoding).to.equal(coding);
    });
  }

  it('asks for gzip, deflate and br like an ordinary client', async () => {
    const ex = await client().send('gzip', { method: 'GET', url: `${target.url}/gzip` });
    expect(seen['gzip']).to.equal('gzip, deflate, br');
    expect(ex.request.headers['accept-encoding']).to.equal('gzip, deflate, br');
  });

  it('cuts a decompression bomb at the cap, counting the decoded bytes', async () => {
    const ex = await client().send('bomb', { method: 'GET', url: `${target.url}/bomb` });
    expect(ex.transportError).to.equal(undefined);
    expect(ex.response?.body.length).to.equal(256 * 1024);
    expect(ex.response?.bodyProblem).to.match(/decoded from gzip exceeds the 262144-byte cap/);
    expect(ex.response?.json).to.equal(undefined);
  });

  it('judges compressed bytes without Content-Encoding as not JSON, and says why', async () => {
    const ex = await client().send('unlabelled', { method: 'GET', url: `${target.url}/unlabelled` });
    expect(ex.response?.json).to.equal(undefined);
    expect(ex.response?.bodyProblem).to.match(/not JSON: its bytes look gzip-compressed, but no Content-Encoding says so/);
  });

  it('judges plain bytes labelled gzip as not JSON', async () => {
    const ex = await client().send('mislabelled', { method: 'GET', url: `${target.url}/mislabelled` });
    expect(ex.response?.json).to.equal(undefined);
    expect(ex.response?.bodyProblem).to.match(/does not decode as gzip/);
  });

  it('reads an empty body labelled gzip as empty, not as a broken coding', async () => {
    const ex = await client().send('empty', { method: 'GET', url: `${target.url}/empty` });
    expect(ex.response?.bodyProblem).to.equal('the body is empty');
  });

  it('undoes at most 3 stacked codings: more is a body problem at once, not minutes of CPU', async () => {
    const ex = await client().send('stacked', { method: 'GET', url: `${target.url}/stacked` });
    expect(ex.transportError).to.equal(undefined);
    expect(ex.response?.status).to.equal(200);
    expect(ex.response?.bodyProblem).to.match(/3200 stacked codings .*more than the 3/);
  });

  it('takes a coding named like an Object.prototype member for an unknown coding: the answer is kept', async () => {
    for (const name of ['proto', 'constructor']) {
      const ex = await client().send(name, { method: 'GET', url: `${target.url}/${name}` });
      expect(ex.transportError, name).to.equal(undefined);
      expect(ex.response?.status, name).to.equal(200);
      expect(ex.response?.bodyProblem, name).to.match(/cannot decode/);
    }
  });

  it('does not read a coding it did not ask for', async () => {
    const ex = await client().send('zstd', { method: 'GET', url: `${target.url}/zstd` });
    expect(ex.response?.json).to.equal(undefined);
    expect(ex.response?.bodyProblem).to.match(/encoded as "zstd"/);
  });
});
