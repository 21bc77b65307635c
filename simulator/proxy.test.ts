// The simulator behind a reverse proxy: next_link must send clients to the address they reached, not to the upstream
// socket the proxy talks to. The proxy is a small node:http one written here, on loopback, in front of the simulator.
import { expect } from 'chai';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { UsageError } from '../src/errors.js';
import type { SimulatorOptions } from './options.js';
import { startTest, type Harness } from '../test/support/simulator.js';

interface Proxy {
  url: string;
  close(): Promise<void>;
}

/**
 * Forwards every request to upstream with the headers `add` gives (as a proxy adds X-Forwarded-*), Host rewritten
 * to the upstream's (as nginx's default proxy_set_header Host $proxy_host does), and `strip` cut off the path.
 */
async function startProxy(upstream: string, add: (incoming: IncomingHttpHeaders) => Record<string, string>, strip = ''): Promise<Proxy> {
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').startsWith(strip) ? (req.url ?? '/').slice(strip.length) || '/' : req.url ?? '/';
    const out = httpRequest({
      host: target.hostname, port: target.port, method: req.method, path,
      headers: { ...req.headers, ...add(req.headers), host: target.host },
    }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** The first page of jobboard activities through the proxy, and its next_link. */
async function nextLinkThrough(proxy: Proxy, t: Harness, path = '/jobboard/activities?status=viewed', headers: Record<string, string> = {}): Promise<string> {
  const res = await request(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${t.client.token ?? ''}`, ...headers } });
  const body = (await res.body.json()) as { meta?: { next_link?: string } };
  expect(res.statusCode).to.equal(200);
  return String(body.meta?.next_link);
}

describe('simulator: behind a reverse proxy', function () {
  this.timeout(30_000);
  const PUBLIC_HOST = 'rdx.example.test';
  let harnesses: Harness[] = [];
  let proxies: Proxy[] = [];
  const sim = async (options: SimulatorOptions): Promise<Harness> => {
    const t = await startTest({ records: 200, pageSize: 3, ...options });
    harnesses.push(t);
    return t;
  };
  const proxy = async (t: Harness, add: (incoming: IncomingHttpHeaders) => Record<string, string>, strip = ''): Promise<Proxy> => {
    const p = await startProxy(new URL(t.sim.baseUrl).origin, add, strip);
    proxies.push(p);
    return p;
  };
  afterEach(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all(harnesses.map((t) => t.close()));
    proxies = [];
    harnesses = [];
  });

  const xForwarded = (): Record<string, string> => ({ 'x-forwarded-host': PUBLIC_HOST, 'x-forwarded-proto': 'https' });

  it('ignores forwarded headers unless told to trust the proxy: a client could send them', async () => {
    const t = await sim({});
    const p = await proxy(t, xForwarded);
    const link = await nextLinkThrough(p, t);
    expect(new URL(link).origin, 'the upstream the proxy spoke to').to.equal(new URL(t.sim.baseUrl).origin);
  });

  it('with --trust-proxy, writes next_link for the host and scheme the proxy reports (X-Forwarded-*, then Forwarded first)', async () => {
    const t = await sim({ trustProxy: true });
    const p = await proxy(t, xForwarded);
    const link = new URL(await nextLinkThrough(p, t));
    expect(link.origin).to.equal(`https://${PUBLIC_HOST}`);
    expect(link.pathname).to.equal('/jobboard/activities');
    expect(link.searchParams.get('status'), 'the filters as sent').to.equal('viewed');

    const standard = await proxy(t, () => ({
      forwarded: `for=127.0.0.1;host="${PUBLIC_HOST}:8443";proto=https, for=10.0.0.1;host=inner.test;proto=http`,
      'x-forwarded-host': 'ignored.test',
    }));
    expect(new URL(await nextLinkThrough(standard, t)).origin).to.equal(`https://${PUBLIC_HOST}:8443`);

    // What is not a host name or an http(s) scheme is not used; the link falls back to the Host header.
    const hostile = await proxy(t, () => ({ 'x-forwarded-host': 'evil.test/path?x=', 'x-forwarded-proto': 'https' }));
    expect(new URL(await nextLinkThrough(hostile, t)).origin).to.equal(new URL(t.sim.baseUrl).origin);
    const scheme = await proxy(t, () => ({ 'x-forwarded-host': PUBLIC_HOST, 'x-forwarded-proto': 'javascript' }));
    expect(new URL(await nextLinkThrough(scheme, t)).origin).to.equal(new URL(t.sim.baseUrl).origin);
  });

  it('with --public-url, writes next_link under it, and a client behind the proxy walks every page', async () => {
    const t = await sim({ publicUrl: 'https://demo.example.test/sandbox/', trustProxy: true });
    // The proxy serves the simulator under /sandbox, as an ingress with a path prefix would.
    const p = await proxy(t, xForwarded, '/sandbox');
    const first = await nextLinkThrough(p, t, '/sandbox/jobboard/activities?status=viewed');
    expect(first.startsWith('https://demo.example.test/sandbox/jobboard/activities?'), first).to.equal(true);
    // Follow next_link to the end, reaching demo.example.test through the proxy (bounded: 200 records, 3 a page).
    const seen = new Set<unknown>();
    let link: string | undefined = first;
    let pages = 1;
    for (; link && link.startsWith('https://') && pages < 200; pages++) {
      const res = await request(link.replace('https://demo.example.test', p.url), { headers: { authorization: `Bearer ${t.client.token ?? ''}` } });
      expect(res.statusCode).to.equal(200);
      const body = (await res.body.json()) as { data: { id: unknown }[]; meta?: { next_link?: string | null } };
      for (const item of body.data) seen.add(item.id);
      link = body.meta?.next_link ?? undefined;
    }
    const all = t.store.jobboardActivities.values().filter((a) => a.status === 'viewed').length;
    expect(seen.size + 3, 'every viewed activity, the first page included').to.equal(all);
  });

  it('refuses a public URL that is not an http(s) base URL', async () => {
    for (const publicUrl of ['demo.example.test', 'ftp://demo.example.test', 'https://user:pw@demo.example.test', 'https://demo.example.test/?x=1']) {
      let error: unknown;
      await startTest({ publicUrl }, false).then((t) => t.close(), (e: unknown) => {
        error = e;
      });
      expect(error, publicUrl).to.be.instanceOf(UsageError);
      expect((error as Error).message).to.include('publicUrl');
    }
  });
});
