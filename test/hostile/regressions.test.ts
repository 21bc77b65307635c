// Regression tests for the harness bugs the hostile catalogue found, each named after what it guards.
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defaults, type Profile } from '../../src/config/profile.js';
import { runConformance } from '../../src/engine/run.js';
import { embeddedSimulator } from '../../src/compose.js';
import { Runner } from '../../src/engine/runner.js';
import { HttpClient, MAX_JSON_DEPTH } from '../../src/http/client.js';
import { htmlReport } from '../../src/reporters/html.js';
import { startHostile, type HostileServer } from './servers.js';
import { within } from './watch.js';

const profileFor = (baseUrl: string, maxResponseBytes = 20 * 1024 * 1024): Profile => ({
  ...defaults(), baseUrl, clientId: 'regression', clientSecret: 'regression-secret-91c2',
  http: { ...defaults().http, timeoutMs: 1_000, maxResponseBytes },
});

/** A full GC on demand, without starting node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('harness regressions found by the hostile catalogue', function () {
  this.timeout(30_000);
  let servers: HostileServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  const hostile = async (kind: Parameters<typeof startHostile>[0]): Promise<HostileServer> => {
    const s = await startHostile(kind);
    servers.push(s);
    return s;
  };

  /** A loopback server answering every request with a small JSON body, and an HTTP client for it. */
  async function plainTarget(timeoutMs = 500): Promise<{ http: HttpClient; url: string; close: () => Promise<void> }> {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"ok","data":[]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const http = new HttpClient({ origins: [url], timeoutMs, maxResponseBytes: 1024 * 1024 });
    return {
      http, url, close: async () => {
        await http.close();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      },
    };
  }

  for (const [what, token] of [['CR and LF', 'tok\r\nX-Injected: 1'], ['a character above U+00FF', 'tok-€']]) {
    it(`never sends a header with ${what}, and 40 such requests leave the client working (no connection slot leaked)`, async () => {
      const t = await plainTarget();
      try {
        // undici refused each such request but kept one of its 16 connection slots: the 17th request waited forever.
        const refused = await within(Promise.all(Array.from({ length: 40 }, () =>
          t.http.send('bad token', { method: 'GET', url: `${t.url}/ats/job-offers`, headers: { authorization: `Bearer ${token}` } }))), 10_000, 'the refused requests');
        for (const ex of refused) {
          expect(ex.transportError?.kind).to.equal('invalid-header');
          expect(ex.transportError?.message).to.match(/not sent: the value of header authorization holds U\+(000D|20AC) at index \d+/);
          expect(JSON.stringify(ex)).to.not.include(token);
        }
        const ok = await within(t.http.send('after', { method: 'GET', url: `${t.url}/ats/job-offers` }), 10_000, 'the request after them');
        expect(ok.response?.status, ok.transportError?.message).to.equal(200);
      } finally {
        await within(t.close(), 10_000, 'closing the client');
      }
    });
  }

  it('ends a request that undici refuses and never settles at the request time limit', async () => {
    const t = await plainTarget(300);
    // A Connection header that is not a list of tokens: undici refuses it after taking a connection slot, which it
    // never gives back (undici 7.30); the harness does not check this header, so only the time limit can end it.
    const stuck = { method: 'GET', url: `${t.url}/`, headers: { connection: 'a b' } };
    try {
      const sent = [];
      for (let i = 0; i < 20; i++) sent.push(await within(t.http.send('stuck', stuck), 5_000, `refused request ${i + 1}`));
      expect(sent.filter((ex) => ex.transportError?.kind === 'timeout').length, 'requests that waited for a slot').to.be.above(0);
      for (const ex of sent) expect(ex.transportError, JSON.stringify(ex.response)).to.not.equal(undefined);
    } finally {
      await within(t.close(), 10_000, 'closing the client');
    }
  });

  it(`records JSON nested deeper than ${MAX_JSON_DEPTH} levels as a body problem instead of a value`, async () => {
    const deep = await hostile('deep-json');
    const http = new HttpClient({ origins: [deep.url], timeoutMs: 1_000, maxResponseBytes: 1024 * 1024 });
    try {
      const ex = await http.send('deep', { method: 'GET', url: `${deep.url}/ats/job-offers` });
      expect(ex.response?.status).to.equal(200);
      expect(ex.response?.json).to.equal(undefined);
      expect(ex.response?.bodyProblem).to.match(/nests deeper than 1000 levels/);
    } finally {
      await http.close();
    }
  });

  it(`still reads JSON nested ${MAX_JSON_DEPTH} levels deep, and brackets inside strings do not count`, async () => {
    const { createServer } = await import('node:http');
    const nested = `{"message":"${'['.repeat(5_000)}","data":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(nested));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const http = new HttpClient({ origins: [`http://127.0.0.1:${port}`], timeoutMs: 1_000, maxResponseBytes: 1024 * 1024 });
    try {
      const ex = await http.send('at the limit', { method: 'GET', url: `http://127.0.0.1:${port}/` });
      expect(ex.response?.bodyProblem).to.equal(undefined);
      expect(ex.response?.json).to.be.an('object');
    } finally {
      await http.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('reports a case the harness itself failed on as an error, never leaving it out of a clean report', async () => {
    const original = Runner.prototype.runCase;
    const broken = 'auth.no-header.list-job-offers';
    Runner.prototype.runCase = async function (this: Runner, c: Parameters<Runner['runCase']>[0]) {
      if (c.id === broken) throw new RangeError('Maximum call stack size exceeded');
      return original.call(this, c);
    };
    try {
      // Against the bundled simulator every case passes, so only the broken one can make the run fail.
      const { report, exitCode } = await runConformance({ profile: defaults(), simulator: embeddedSimulator(), reporter: 'none', filters: { grep: `^(token\\.issued|${broken.replace(/\./g, '\\.')}) ` } });
      const c = report.cases.find((x) => x.id === broken);
      expect(c?.verdict).to.equal('error');
      expect(c?.reason).to.match(/harness error: Maximum call stack/);
      expect(report.summary.conformant).to.equal(false);
      expect(exitCode).to.equal(1);
    } finally {
      Runner.prototype.runCase = original;
    }
  });

  it('ends a stopped run even when a case never ends, reporting that case as not run', async () => {
    const original = Runner.prototype.runCase;
    const stuck = 'auth.no-header.list-job-offers';
    const interrupt = new AbortController();
    // Lets the left-behind case end once the test has seen the report, so its inner mocha run ends too.
    let release = (): void => undefined;
    // Whatever holds a case (a command of the id source, a wait): here a promise that never settles; the run is
    // interrupted once the case is under way.
    Runner.prototype.runCase = async function (this: Runner, c: Parameters<Runner['runCase']>[0]) {
      if (c.id !== stuck) return original.call(this, c);
      setTimeout(() => interrupt.abort('SIGINT'), 100);
      return new Promise<never>((_, reject) => {
        release = () => reject(new Error('released by the test'));
      });
    };
    try {
      const { report } = await within(runConformance({ profile: defaults(), simulator: embeddedSimulator(), reporter: 'none', interrupt: interrupt.signal,
        filters: { grep: `^(token\\.issued|${stuck.replace(/\./g, '\\.')}) ` } }), 20_000, 'the stopped run');
      const c = report.cases.find((x) => x.id === stuck);
      expect(c?.verdict).to.equal('skip');
      expect(c?.reason).to.match(/^not run \(interrupted\)/);
      expect(report.run.stopped?.reason).to.equal('interrupted');
      expect(report.summary.conformant).to.equal(false);
    } finally {
      release();
      Runner.prototype.runCase = original;
    }
  });

  it('keeps a short copy of each huge body in the report, so the run does not hold the bodies it read', async () => {
    const endless = await hostile('endless-body');
    const gc = collector();
    const profile = profileFor(endless.url, 2 * 1024 * 1024);
    const filters = { grep: '^auth\\.no-header\\.' };
    // A first run loads every module the run needs, so the second one measures only what a run keeps.
    await runConformance({ profile, reporter: 'none', filters });
    gc();
    const before = process.memoryUsage().heapUsed;
    const { report } = await runConformance({ profile, reporter: 'none', filters });
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    const exchanges = report.cases.flatMap((c) => c.exchanges);
    expect(exchanges.length).to.be.at.least(15);
    const read = exchanges.length * 2 * 1024 * 1024;
    for (const ex of exchanges) {
      expect(ex.response?.body.length).to.be.at.most(1024 * 1024);
      expect(ex.response?.bodyProblem).to.match(/exceeds the 2097152-byte cap/);
    }
    // The bodies it read were 2 MiB each; a slice of each would keep all of them alive.
    expect(kept, `kept ${Math.round(kept / 2 ** 20)} MiB after reading ${Math.round(read / 2 ** 20)} MiB`).to.be.below(read / 4);
  });

  it('renders report.html without re-parsing a body the harness already found unreadable', async () => {
    const deep = await hostile('deep-json');
    const { report } = await runConformance({ profile: profileFor(deep.url), reporter: 'none', filters: { grep: '^auth\\.no-header\\.list-job-offers ' } });
    const parse = JSON.parse;
    const parsedLong: number[] = [];
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (text.length > 100_000) parsedLong.push(text.length);
      return parse(text, reviver);
    }) as typeof JSON.parse;
    let html: string;
    try {
      html = htmlReport(report);
    } finally {
      JSON.parse = parse;
    }
    expect(parsedLong, 'bodies parsed again while rendering').to.deep.equal([]);
    expect(html).to.include('nests deeper than 1000 levels');
  });
});
