// The security pass (SECURITY.md): secrets compared in constant time, limits on body, headers and request time
// (slow clients cut off), tokens that cannot be guessed, the admin surface guarded beyond loopback, and no secret
// or token in any output of a full run: console, report files, bundle, the simulator's journal.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { TokenStore, credentialsMatch, secretsEqual } from '../simulator/auth.js';
import { rawExchange } from '../test/fuzz/raw.js';
import { startSimulator, type Simulator } from '../simulator/index.js';
import { packageRoot } from './spec/index.js';
import { internalsOf } from '../test/support/simulator.js';

const CLI = fileURLToPath(new URL('./cli/main.js', import.meta.url));

/** One request on its own connection: status, headers and body text. */
async function fetchText(
  url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const agent = new Agent({ connections: 1 });
  try {
    const res = await request(url, { method: (options.method ?? 'GET') as 'GET', headers: options.headers, body: options.body, dispatcher: agent, headersTimeout: 10_000, bodyTimeout: 10_000 });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  } finally {
    await agent.close();
  }
}

function storeDigest(sim: Simulator): string {
  const hash = createHash('sha256');
  const { store } = internalsOf(sim);
  for (const table of [store.jobOffers, store.applicationSteps, store.jobboardActivities, store.jobboardJobOffers]) {
    hash.update(JSON.stringify(table.values()));
  }
  return hash.update(JSON.stringify(internalsOf(sim).store.users)).digest('hex');
}

/**
 * Writes header lines (or body bytes) one every `everyMs`, at most `max` of them, until the server closes the
 * connection. Resolves with how many it sent before the close and what the server answered.
 */
function drip(port: number, head: string, piece: string, everyMs: number, max: number): Promise<{ sent: number; answer: string; closedBeforeEnd: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (closedBeforeEnd: boolean): void => {
      clearInterval(timer);
      socket.destroy();
      resolve({ sent, answer, closedBeforeEnd });
    };
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => done(sent < max));
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent >= max) return done(false);
        sent += 1;
        socket.write(piece);
      }, everyMs);
    });
  });
}

describe('security: secrets are compared in constant time', () => {
  it('matches credentials only when both id and secret match, whatever their lengths', () => {
    const expected = { clientId: 'client', clientSecret: 's3cret-value' };
    expect(credentialsMatch(expected, 'client', 's3cret-value')).to.equal(true);
    expect(credentialsMatch(expected, 'client', 's3cret-valuX')).to.equal(false);
    expect(credentialsMatch(expected, 'client', '')).to.equal(false);
    expect(credentialsMatch(expected, 'client', 's3cret-value'.repeat(1_000))).to.equal(false);
    expect(credentialsMatch(expected, 'other', 's3cret-value')).to.equal(false);
    expect(secretsEqual('admin-token', 'admin-token')).to.equal(true);
    expect(secretsEqual('admin-token', 'admin-tokem')).to.equal(false);
    expect(secretsEqual('admin-token', '🔑')).to.equal(false);
  });

  it('compares no secret of the simulator with === or !== (only through timingSafeEqual)', () => {
    const dirs = ['simulator', 'simulator/admin', 'simulator/handlers', 'simulator/dashboard'];
    const offenders: string[] = [];
    const scanned: Record<string, number> = {};
    const files: string[] = [];
    // An operand of === or !== that names a secret: `x.clientSecret === given`, `given !== adminToken`.
    const secret = "[\\w.\\]\\['\"]*(?:clientSecret|client_secret|adminToken|admin_token|[sS]ecret)\\b['\"\\]]*";
    const compare = new RegExp(`${secret}\\s*[!=]==|[!=]==\\s*${secret}`);
    // Comparing with undefined or a default is about presence, not about the secret's value.
    const presence = /[!=]==\s*(undefined|null|DEFAULT_CLIENT_SECRET)\b|(undefined|null)\s*[!=]==/;
    const offends = (line: string): boolean => compare.test(line) && !presence.test(line);
    // The scanner itself: it finds the comparisons it is for, and lets presence checks be.
    expect(['if (given.clientSecret === expected) {', "if (req.headers['x-admin'] !== adminToken) return;"].map(offends)).to.deep.equal([true, true]);
    expect(offends('if (options.adminToken !== undefined) {')).to.equal(false);
    for (const dir of dirs) {
      // A missing or renamed folder throws here rather than being scanned as empty.
      const names = readdirSync(join(packageRoot, dir)).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));
      scanned[dir] = names.length;
      for (const name of names) {
        files.push(`${dir}/${name}`);
        readFileSync(join(packageRoot, dir, name), 'utf8').split('\n').forEach((line, i) => {
          if (offends(line)) offenders.push(`${dir}/${name}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(Object.entries(scanned).filter(([, n]) => n === 0).map(([dir]) => dir), 'folders with no source to scan').to.deep.equal([]);
    // Where the simulator checks a client's secret and the admin token: a scan that misses them proves nothing.
    expect(files).to.include.members(['simulator/auth.ts', 'simulator/admin/guard.ts']);
    expect(offenders).to.deep.equal([]);
  });
});

describe('security: limits on body size, header size and request time', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let port: number;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, records: 20, maxBodyBytes: 4_096, headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    port = Number(new URL(sim.baseUrl).port);
  });
  after(() => sim.close());

  it('refuses a body over the limit with 413, whether declared or streamed', async () => {
    const declared = await fetchText(`${sim.baseUrl}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"client_id":"${'x'.repeat(5_000)}"}` });
    expect(declared.status).to.equal(413);
    expect(JSON.parse(declared.text)).to.have.property('errors');
    // Chunked, so no length announces it: the server stops reading at the limit and answers.
    const head = Buffer.from('POST /oauth2/token HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
    const streamed = await rawExchange({ head, stream: { piece: Buffer.alloc(1_024, 0x20), total: 1024 * 1024, chunked: true } }, { host: '127.0.0.1', port, timeoutMs: 5_000 });
    expect(streamed.kind === 'response' ? streamed.response.status : streamed.kind).to.equal(413);
  });

  it('refuses headers over 16 KiB with a JSON 431', async () => {
    const res = await fetchText(`${sim.baseUrl}/ats/job-offers`, { headers: { 'x-fill': 'f'.repeat(20_000) } });
    expect(res.status).to.equal(431);
    expect(res.headers['content-type']).to.match(/application\/json/);
  });

  it('cuts off a client that drips its headers (slow loris) before it is done', async () => {
    // 40 header lines, one every 100 ms: 4 s, longer than the 1 s headers limit (and the 2 s request limit).
    const result = await drip(port, 'GET /ats/job-offers HTTP/1.1\r\nhost: 127.0.0.1\r\n', 'x-drip: 1\r\n', 100, 40);
    expect(result.closedBeforeEnd, `the server let ${result.sent} header lines through`).to.equal(true);
    expect(result.answer).to.match(/^HTTP\/1\.1 408 /);
    expect(result.answer).to.include('application/json');
  });

  it('cuts off a client that drips its body before it is done', async () => {
    const head = 'POST /oauth2/token HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n';
    const result = await drip(port, head, ' ', 100, 40);
    expect(result.closedBeforeEnd, `the server read ${result.sent} body bytes`).to.equal(true);
  });

  it('still serves once the slow clients are gone', async () => {
    const res = await fetchText(`${sim.baseUrl}/ats/job-offers`);
    expect(res.status).to.equal(401);
  });
});

describe('security: tokens cannot be guessed', () => {
  it('issues access tokens of 24 random bytes and an 8-byte tag, all different, recognised only by the store that issued them', () => {
    const store = new TokenStore(Date.now);
    const tokens = Array.from({ length: 500 }, () => store.issue('client', 60));
    expect(new Set(tokens).size).to.equal(tokens.length);
    for (const token of tokens) {
      expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).to.have.length(32);
    }
    // No shared prefix longer than chance allows: 500 random tokens share at most a few leading characters.
    const prefixes = new Set(tokens.map((t) => t.slice(0, 4)));
    expect(prefixes.size).to.be.above(490);
    // The tag: this store recognises its tokens, another store (another key) does not, nor a token with one bit changed.
    const other = new TokenStore(Date.now);
    const sample = tokens[0] as string;
    expect(tokens.every((t) => store.issued(t))).to.equal(true);
    expect(tokens.some((t) => other.issued(t))).to.equal(false);
    const flipped = Buffer.from(sample, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(store.issued(flipped.toString('base64url'))).to.equal(false);
  });

  it('generates an admin token of at least 128 random bits when listening beyond loopback', async () => {
    const a = await startSimulator({ host: '0.0.0.0', port: 0, records: 0 });
    const b = await startSimulator({ host: '0.0.0.0', port: 0, records: 0 });
    try {
      for (const token of [a.adminToken, b.adminToken]) {
        expect(token).to.be.a('string');
        expect(Buffer.from(token ?? '', 'base64url').length * 8).to.be.at.least(128);
      }
      expect(a.adminToken).to.not.equal(b.adminToken);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('security: the admin surface beyond loopback (listening on 0.0.0.0, reached via 127.0.0.1)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let admin: string;
  before(async () => {
    sim = await startSimulator({ host: '0.0.0.0', port: 0, records: 50 });
    admin = `http://127.0.0.1:${new URL(sim.baseUrl).port}/__admin/`;
  });
  after(() => sim.close());

  it('requires the admin token for every admin request but health', async () => {
    const token = sim.adminToken as string;
    const before = storeDigest(sim);
    expect((await fetchText(`${admin}health`)).status).to.equal(200);
    const guarded: [string, string][] = [['GET', 'journal'], ['POST', 'reset'], ['POST', 'reseed'], ['POST', 'expired-token']];
    for (const [method, name] of guarded) {
      for (const headers of [{}, { 'x-rdx-admin-token': 'wrong' }, { 'x-rdx-admin-token': `${token}x` }, { 'x-rdx-admin-token': token.slice(1) }] as Record<string, string>[]) {
        const res = await fetchText(`${admin}${name}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(method === 'POST' ? { body: '{"seed":9,"records":10}' } : {}) });
        expect(res.status, `${method} ${name} with ${JSON.stringify(headers)}`).to.equal(401);
        expect(res.text).to.not.include(token);
      }
    }
    expect(storeDigest(sim), 'a refused admin request changed the store').to.equal(before);
    const allowed = await fetchText(`${admin}journal`, { headers: { 'x-rdx-admin-token': token } });
    expect(allowed.status).to.equal(200);
  });

  it('answers 404 under /__admin/ when the admin surface is off', async () => {
    const off = await startSimulator({ host: '0.0.0.0', port: 0, records: 0, admin: false });
    try {
      expect(off.adminToken).to.equal(undefined);
      const res = await fetchText(`http://127.0.0.1:${new URL(off.baseUrl).port}/__admin/journal`);
      expect(res.status).to.equal(404);
    } finally {
      await off.close();
    }
  });
});

describe('security: no secret or token in any output of a full run', function () {
  this.timeout(90_000);
  // URL-special characters on purpose: a secret must not leak in its encoded forms either.
  const SECRET = 'Sec+ret/4x=&zz 9f2c7e1b';
  const CLIENT = 'security-client';

  it('keeps the client secret and every issued token out of stdout, stderr, report files, the bundle and the journal', async () => {
    const issued: string[] = [];
    const issue = TokenStore.prototype.issue;
    TokenStore.prototype.issue = function (this: TokenStore, clientId: string, ttl: number): string {
      const token = issue.call(this, clientId, ttl);
      issued.push(token);
      return token;
    };
    const dir = mkdtempSync(join(tmpdir(), 'rdx-security-'));
    const simulatorLog: string[] = [];
    const writeStderr = process.stderr.write.bind(process.stderr);
    let sim: Simulator | undefined;
    try {
      sim = await startSimulator({ host: '127.0.0.1', port: 0, records: 300, clientId: CLIENT, clientSecret: SECRET });
      const expired = sim.expiredToken();
      // A complete run: the expired token and a seeded job offer as fixtures, the irreversible tier allowed below.
      writeFileSync(join(dir, 'rdx.config.yaml'), `fixtures:\n  expiredToken: "\${env:RDX_EXPIRED_TOKEN}"\n  atsJobOfferIds: ${JSON.stringify(sim.atsJobOfferFixtureIds())}\n`);
      process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
        simulatorLog.push(String(chunk));
        return (writeStderr as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof process.stderr.write;
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'run', '--base-url', sim?.baseUrl ?? '', '--client-id', CLIENT, '--report-dir', 'out', '--bundle',
          '--allow-irreversible', '-R', 'spec'], { cwd: dir, env: { ...process.env, RDX_CLIENT_SECRET: SECRET, RDX_EXPIRED_TOKEN: expired, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        const killer = setTimeout(() => child.kill('SIGKILL'), 75_000);
        child.on('exit', (code) => {
          clearTimeout(killer);
          resolve({ code, stdout, stderr });
        });
      });
      process.stderr.write = writeStderr;
      expect(run.code, run.stderr.slice(-2_000)).to.equal(0);
      expect(issued.length, 'tokens the simulator issued').to.be.at.least(3);

      const outputs: [string, string][] = [['stdout', run.stdout], ['stderr', run.stderr], ['simulator stderr', simulatorLog.join('')]];
      const files = readdirSync(join(dir, 'out'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      for (const entry of files) {
        const path = join(entry.parentPath, entry.name);
        const bytes = readFileSync(path);
        outputs.push([path, bytes.toString('utf8')]);
        if (entry.name.endsWith('.gz')) outputs.push([`${path} (unpacked)`, gunzipSync(bytes).toString('utf8')]);
      }
      expect(files.map((e) => e.name)).to.include.members(['report.json', 'junit.xml', 'report.html', 'bundle.tar.gz']);
      outputs.push(['journal', JSON.stringify(internalsOf(sim).journal.entries())]);
      outputs.push(['GET /__admin/journal', (await fetchText(`${sim.adminUrl ?? ''}journal`)).text]);

      const forms = (secret: string): string[] => [...new Set([
        secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1),
        secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
      ])];
      const needles: [string, string][] = [
        ...forms(SECRET).map((f): [string, string] => ['client secret', f]),
        ['Basic credentials', Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')],
        ...issued.map((t, i): [string, string] => [`token #${i + 1}`, t]),
      ];
      const leaks: string[] = [];
      for (const [where, text] of outputs) {
        for (const [what, needle] of needles) if (text.includes(needle)) leaks.push(`${what} (${JSON.stringify(needle.slice(0, 12))}…) in ${where}`);
      }
      expect(leaks).to.deep.equal([]);
    } finally {
      process.stderr.write = writeStderr;
      TokenStore.prototype.issue = issue;
      await sim?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints neither the client secret nor a given admin token when `rdx simulate` starts', async () => {
    const adminToken = 'given-admin-token-4c9d2a7e';
    const started = await new Promise<{ out: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'simulate', '--port', '0', '--host', '127.0.0.1', '--records', '10', '--admin-token', adminToken],
        { env: { ...process.env, RDX_SIM_CLIENT_SECRET: SECRET }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const finish = (): void => {
        clearTimeout(killer);
        child.kill('SIGTERM');
        resolve({ out });
      };
      const killer = setTimeout(finish, 20_000);
      const read = (c: Buffer): void => {
        out += c.toString();
        if (out.includes('Press Ctrl-C')) finish();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
    });
    expect(started.out).to.include('rdx simulator listening');
    expect(started.out).to.not.include(SECRET);
    expect(started.out).to.not.include(adminToken);
  });
});
