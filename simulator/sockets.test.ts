// Sockets are freed: `rdx simulate` in a child process, watched through its open file descriptors
// (/proc/<pid>/fd), against clients that never close their side. A slow-loris client's sockets must be destroyed
// after the 408, and a client opening silent connections by the hundred must meet the connection cap while other
// clients are still served. Loopback only; every wait is bounded.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const CAP = 100;
const HEADERS_TIMEOUT_MS = 1_500;

const fdCount = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `ok` holds or `ms` pass; the last value either way. */
async function until<T>(read: () => T, ok: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let value = read();
  while (!ok(value) && Date.now() < end) {
    await sleep(100);
    value = read();
  }
  return value;
}

/** A connection that never closes its side (allowHalfOpen): it stays until the server destroys it. */
function stubborn(port: number, first?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true }, () => {
      if (first !== undefined) socket.write(first);
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
    socket.resume();
  });
}

async function health(port: number): Promise<number> {
  const res = await request(`http://127.0.0.1:${port}/__admin/health`, { headersTimeout: 3_000, bodyTimeout: 3_000 });
  await res.body.text();
  return res.statusCode;
}

describe('simulator sockets: freed after a timeout, capped in number (watching /proc/<pid>/fd)', function () {
  this.timeout(40_000);
  let child: ChildProcess;
  let port = 0;
  let pid = 0;
  let baseline = 0;
  const held: Socket[] = [];

  before(async function () {
    if (!existsSync('/proc/self/fd')) {
      console.log('    (skipping the socket tests: no /proc on this system to count open sockets by)');
      this.skip();
    }
    child = spawn(process.execPath, [MAIN, 'simulate', '--port', '0', '--records', '0', '--max-connections', String(CAP),
      '--headers-timeout', String(HEADERS_TIMEOUT_MS), '--request-timeout', String(HEADERS_TIMEOUT_MS * 2)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`rdx simulate did not start:\n${out}`)), 15_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m && out.includes('Ctrl-C')) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    pid = child.pid as number;
    await health(port);
    await sleep(200);
    baseline = fdCount(pid);
  });

  afterEach(() => {
    for (const s of held.splice(0)) s.destroy();
  });

  after(async () => {
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await Promise.race([exited, sleep(5_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('destroys a slow-loris socket after its 408, though the client never closes its side', async () => {
    const n = 40;
    for (let i = 0; i < n; i++) held.push(await stubborn(port, 'GET /__admin/health HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: '));
    const during = await until(() => fdCount(pid), (v) => v >= baseline + n, 2_000);
    expect(during, 'the slow connections are open at first').to.be.at.least(baseline + n);
    const started = Date.now();
    // Headers timeout, plus Node's check interval (1 s), plus the linger for the answer to be read.
    const after = await until(() => fdCount(pid), (v) => v <= baseline + 2, HEADERS_TIMEOUT_MS + 4_000);
    process.stdout.write(`      fds: ${baseline} at rest, ${during} with ${n} slow-loris sockets, ${after} ${Date.now() - started} ms later\n`);
    expect(after, `open descriptors ${HEADERS_TIMEOUT_MS + 4_000} ms after the timeout`).to.be.at.most(baseline + 2);
  });

  it(`keeps at most ${CAP} connections however many silent ones a client opens, and still serves a newcomer`, async () => {
    const flood = 400;
    for (let i = 0; i < flood; i++) held.push(await stubborn(port));
    await sleep(150);
    const peak = fdCount(pid);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await health(port));
    process.stdout.write(`      fds: ${baseline} at rest, ${peak} with ${flood} silent connections held (cap ${CAP}); newcomers answered ${statuses.join(', ')}\n`);
    expect(peak, `descriptors with ${flood} silent connections open`).to.be.at.most(baseline + CAP + 5);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200]);
    for (const s of held.splice(0)) s.destroy();
    const after = await until(() => fdCount(pid), (v) => v <= baseline + 2, 3_000);
    expect(after).to.be.at.most(baseline + 2);
  });
});
