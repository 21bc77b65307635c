// Credentials stay home: a target whose meta.next_link points at another origin (another loopback address here,
// 127.0.0.2, standing for a cloud metadata service or an attacker's host) must not receive a single request from
// the harness, the token least of all, whatever form the link takes. The walk is judged a failure of the pagination
// clause with the link shown.
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaults, type Profile } from '../../src/config/profile.js';
import { runConformance } from '../../src/engine/run.js';
import { HttpClient } from '../../src/http/client.js';
import { stripUserinfoInText } from '../../src/http/redact.js';

interface Listening {
  server: Server;
  port: number;
  /** Every request received: method, URL and Authorization header. */
  seen: { method: string; url: string; authorization: string | undefined }[];
}

async function listen(host: string, answer: (req: IncomingMessage) => unknown): Promise<Listening> {
  const seen: Listening['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    const body = JSON.stringify(answer(req));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

async function stop(l: Listening): Promise<void> {
  l.server.closeAllConnections();
  await new Promise<void>((resolve) => l.server.close(() => resolve()));
}

const TOKEN = 'origin-test-token-4b1d9e27c0';
const offer = (n: number): Record<string, unknown> => ({ reference: `JO-${n}`, title: 'Nurse', description: 'x', publication_at: '2026-03-01T09:00:00Z' });

describe('origin guard: nothing goes to an origin the user did not name', function () {
  this.timeout(20_000);
  let trap: Listening;
  before(async () => {
    // The other origin: answers like a last page, so a harness that followed the link would see a clean walk.
    trap = await listen('127.0.0.2', () => ({ message: 'metadata', data: [offer(2)], meta: { next_link: null } }));
  });
  after(() => stop(trap));
  afterEach(() => {
    trap.seen.length = 0;
  });

  const forms: { name: string; link: (trapPort: number, targetPort: number) => string }[] = [
    { name: 'an absolute URL on another host', link: (p) => `http://127.0.0.2:${p}/latest/meta-data/iam/security-credentials/` },
    { name: 'a scheme-relative URL', link: (p) => `//127.0.0.2:${p}/ats/job-offers?page=2` },
    { name: 'a userinfo trick that names the target first', link: (p, t) => `http://127.0.0.1:${t}@127.0.0.2:${p}/ats/job-offers?page=2` },
    { name: 'the same host on another port', link: (_p, t) => `http://127.0.0.1:${t + 1}/ats/job-offers?page=2` },
  ];

  for (const form of forms) {
    it(`does not follow a next_link that is ${form.name}, and fails PAGINATION.WALK showing the link`, async () => {
      let link = '';
      const target = await listen('127.0.0.1', (req) => (req.url?.startsWith('/oauth2/token')
        ? { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }
        : { message: 'ok', data: [offer(1)], meta: { next_link: link } }));
      link = form.link(trap.port, target.port);
      const profile: Profile = {
        ...defaults(), baseUrl: `http://127.0.0.1:${target.port}`, clientId: 'origin', clientSecret: 'origin-secret-77a1',
        http: { ...defaults().http, timeoutMs: 2_000 },
      };
      try {
        const { report } = await runConformance({ profile, reporter: 'none', filters: { grep: '^job-offers\\.walk-unfiltered ' } });
        expect(trap.seen, 'requests that reached the other origin').to.deep.equal([]);
        const c = report.cases.find((x) => x.id === 'job-offers.walk-unfiltered');
        const broken = (c?.assertions ?? []).filter((a) => !a.passed);
        expect(c?.verdict, JSON.stringify(c?.assertions)).to.equal('warn');
        const check = broken.find((a) => a.check === 'next-link-same-origin');
        expect(check?.clause).to.equal('PAGINATION.WALK');
        // The link as the report shows it: userinfo is stripped from every message (SECURITY.md), so a trick that names
        // the target in it shows the host it really leads to.
        expect(check?.message).to.include(JSON.stringify(stripUserinfoInText(link))).and.match(/leaves the target's origin http:\/\/127\.0\.0\.1:\d+: not followed/);
        // Only the first page went out; the link shows in the report but was never requested.
        expect(c?.exchanges.map((e) => e.request.url)).to.deep.equal([`http://127.0.0.1:${target.port}/ats/job-offers`]);
        expect(target.seen.filter((r) => r.url.startsWith('/ats/'))).to.have.length(1);
      } finally {
        await stop(target);
      }
    });
  }

  it('refuses in the HTTP client itself, for any caller: nothing is sent, the exchange says why', async () => {
    const http = new HttpClient({ origins: ['http://127.0.0.1:9'], timeoutMs: 1_000, maxResponseBytes: 1024 });
    try {
      for (const url of [`http://127.0.0.2:${trap.port}/x`, `http://127.0.0.1:9@127.0.0.2:${trap.port}/x`, `https://127.0.0.1:9/x`, 'not a url']) {
        const ex = await http.send('foreign', { method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
        expect(ex.transportError?.kind, url).to.equal('foreign-origin');
        expect(ex.transportError?.message).to.include('not sent');
        expect(JSON.stringify(ex)).to.not.include(TOKEN);
      }
      expect(trap.seen).to.deep.equal([]);
    } finally {
      await http.close();
    }
  });

  it('strips userinfo from a URL of the allowed origin: it is neither sent as credentials nor recorded', async () => {
    const http = new HttpClient({ origins: [`http://127.0.0.2:${trap.port}`], timeoutMs: 1_000, maxResponseBytes: 4096 });
    try {
      const ex = await http.send('userinfo', { method: 'GET', url: `http://alice:pa55word@127.0.0.2:${trap.port}/x` });
      expect(ex.response?.status).to.equal(200);
      expect(trap.seen.map((r) => r.authorization)).to.deep.equal([undefined]);
      expect(ex.request.url).to.equal(`http://127.0.0.2:${trap.port}/x`);
    } finally {
      await http.close();
    }
  });
});
