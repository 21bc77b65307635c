import { expect } from 'chai';
import { createServer } from 'node:http';
import { undici, undiciIndex } from './undici.js';
import { listenOnLoopback } from '../../test/support/loopback.js';

describe('undici, loaded part by part', () => {
  const index = undiciIndex();

  it('takes each part from its own module, and they are the classes the package exports', () => {
    // 'index' means an undici release moved a part: the client still works, but every run loads the whole package.
    expect(undici.from).to.equal('modules');
    expect(undici.Agent).to.equal(index.Agent);
    expect(undici.ProxyAgent).to.equal(index.ProxyAgent);
    expect(undici.errors).to.equal(index.errors);
  });

  it('sends what the index\'s request sends: the method, the path with its query, headers and body', async () => {
    const seen: string[] = [];
    const server = await listenOnLoopback(createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers['x-probe']} ${body}`);
        res.writeHead(201, { 'x-answer': 'yes' }).end('done');
      });
    }));
    const dispatcher = new undici.Agent();
    try {
      for (const request of [undici.request, index.request]) {
        for (const path of ['/a/b?x=1&y=%20', '/', '/c?']) {
          const res = await request(`${server.url}${path}`, { method: 'POST', headers: { 'x-probe': 'p' }, body: 'hi', dispatcher });
          expect([res.statusCode, res.headers['x-answer'], await res.body.text()]).to.deep.equal([201, 'yes', 'done']);
        }
      }
      const half = seen.length / 2;
      expect(seen.slice(0, half)).to.deep.equal(seen.slice(half)).and.to.have.length(3);
      expect(seen[0]).to.equal('POST /a/b?x=1&y=%20 p hi');
    } finally {
      await dispatcher.close();
      await server.close();
    }
  });

  it('refuses a URL that is not http(s) as the index does', async () => {
    const dispatcher = new undici.Agent();
    try {
      const refusal = async (request: typeof undici.request): Promise<string> =>
        // Thrown before anything is sent, by both (the client awaits it, so either way a rejection).
        (async () => request('ftp://127.0.0.1/x', { method: 'GET', dispatcher }))().then(() => 'sent', (e: Error) => `${e.name}: ${e.message}`);
      expect(await refusal(undici.request)).to.equal(await refusal(index.request)).and.to.match(/protocol/);
    } finally {
      await dispatcher.close();
    }
  });
});
