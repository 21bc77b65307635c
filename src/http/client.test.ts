import { expect } from 'chai';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { HttpClient } from './client.js';
import { Secrets } from './redact.js';
import { listenOnLoopback, type LoopbackServer } from '../../test/support/loopback.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A loopback server that misbehaves in one chosen way per path. */
async function hostile(handlers: Record<string, Handler>): Promise<LoopbackServer> {
  return listenOnLoopback(createServer((req, res) => {
    const h = handlers[req.url ?? ''];
    if (h) h(req, res);
    else res.writeHead(404).end();
  }));
}

describe('HttpClient against misbehaving targets', () => {
  let target: LoopbackServer;
  const timers: NodeJS.Timeout[] = [];
  before(async () => {
    target = await hostile({
      '/json': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"ok","data":[]}'),
      '/garbage': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0xff, 0xfe, 0x00, 0x41])),
      '/reset': (req) => req.socket.destroy(),
      '/drip': (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"message":');
        timers.push(setTimeout(() => res.end('"late"}'), 5_000));
      },
      '/endless': (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = (): void => {
          while (res.write(chunk)) { /* fill the socket buffer */ }
          res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      },
      '/redirect': (_q, res) => res.writeHead(302, { location: '/redirect' }).end(),
      '/bad-length': (req) => {
        req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"message":"short"}');
        req.socket.end();
      },
    });
  });
  after(async () => {
    timers.forEach(clearTimeout);
    await target.close();
  });

  const client = (): HttpClient => new HttpClient({ origins: [target.url, 'http://127.0.0.1:9'], timeoutMs: 800, maxResponseBytes: 256 * 1024 });

  it('records a JSON answer with status, headers and parsed body', async () => {
    const ex = await client().send('json', { method: 'GET', url: `${target.url}/json` });
    expect(ex.response?.status).to.equal(200);
    expect(ex.response?.headers['content-type']).to.equal('application/json');
    expect(ex.response?.json).to.deep.equal({ message: 'ok', data: [] });
    expect(ex.transportError).to.equal(undefined);
  });

  it('records garbage bytes as a body problem, not a crash', async () => {
    const ex = await client().send('garbage', { method: 'GET', url: `${target.url}/garbage` });
    expect(ex.response?.status).to.equal(200);
    expect(ex.response?.json).to.equal(undefined);
    expect(ex.response?.bodyProblem).to.match(/not JSON/);
  });

  it('classifies a connection reset', async () => {
    const ex = await client().send('reset', { method: 'GET', url: `${target.url}/reset` });
    expect(ex.transportError?.kind).to.equal('connection-reset');
    expect(ex.response).to.equal(undefined);
  });

  it('gives up on a slow drip at the timeout', async () => {
    const ex = await client().send('drip', { method: 'GET', url: `${target.url}/drip` });
    expect(ex.transportError?.kind).to.equal('timeout');
    expect(ex.elapsedMs).to.be.below(4_000);
  });

  it('cuts an endless body at the size cap', async () => {
    const ex = await client().send('endless', { method: 'GET', url: `${target.url}/endless` });
    expect(ex.response?.bodyProblem).to.match(/exceeds the 262144-byte cap/);
    expect(ex.response?.body.length).to.equal(256 * 1024);
  });

  it('does not follow redirects: the 3xx is what gets judged', async () => {
    const ex = await client().send('redirect', { method: 'GET', url: `${target.url}/redirect` });
    expect(ex.response?.status).to.equal(302);
  });

  it('reports a wrong Content-Length as a transport problem', async () => {
    const ex = await client().send('bad-length', { method: 'GET', url: `${target.url}/bad-length` });
    expect(ex.transportError?.kind, ex.transportError?.message).to.equal('connection-reset');
  });

  it('classifies a refused connection', async () => {
    const ex = await client().send('refused', { method: 'GET', url: 'http://127.0.0.1:9/' });
    expect(ex.transportError?.kind).to.equal('connection-refused');
  });

  it('retries transport errors only, as many times as asked', async () => {
    let calls = 0;
    const counting = await hostile({
      '/flaky': (req, res) => {
        calls += 1;
        if (calls < 3) req.socket.destroy();
        else res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom","errors":[]}');
      },
    });
    try {
      const ex = await new HttpClient({ origins: [counting.url], timeoutMs: 800, maxResponseBytes: 1024, retries: 3 }).send('flaky', { method: 'GET', url: `${counting.url}/flaky` });
      expect(ex.response?.status).to.equal(500);
      expect(calls).to.equal(3);
    } finally {
      await counting.close();
    }
  });
});

describe('Secrets', () => {
  it('masks every known secret in URL, headers and bodies, parsed or not', () => {
    const secrets = new Secrets();
    secrets.add('s3cret-value');
    secrets.add('tok_abcdef');
    secrets.add('abc'); // too short to be a secret: ignored so it does not mask innocent text
    const red = secrets.redact({
      step: 'x',
      request: { method: 'POST', url: 'http://h/p?access_token=tok_abcdef', headers: { authorization: 'Bearer tok_abcdef' }, body: '{"client_secret":"s3cret-value"}' },
      response: { status: 200, headers: {}, body: '{"access_token":"tok_abcdef","abc":1}', json: { access_token: 'tok_abcdef', abc: 1 } },
      startedAt: '', elapsedMs: 1,
    });
    const text = JSON.stringify(red);
    expect(text).to.not.include('tok_abcdef');
    expect(text).to.not.include('s3cret-value');
    expect(red.request.headers['authorization']).to.equal('Bearer ***');
    expect(red.response?.json).to.deep.equal({ access_token: '***', abc: 1 });
  });
});
