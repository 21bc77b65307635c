// The parts of `rdx run --image` that need no container engine: readiness probes, the log tail, credentials,
// and the exit-3 message when no engine can be reached.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { packageRoot } from '../spec/index.js';
import { containerCredentials, dockerHostAnswers, engineIsLocal } from './index.js';
import type { BoundPorts } from 'testcontainers';
import { LogTail, NotReadyError, Readiness, containerState, httpAnswers, portAccepts, urlHost } from './readiness.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

async function listening<T extends Server | HttpServer>(server: T): Promise<{ server: T; port: number }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function closedPort(): Promise<number> {
  const { server, port } = await listening(createServer());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('container readiness (no engine needed)', function () {
  this.timeout(10_000);
  const servers: (Server | HttpServer)[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('calls a port open when a server accepts and keeps the connection', async () => {
    const { server, port } = await listening(createServer(() => undefined));
    servers.push(server);
    expect(await portAccepts({ host: '127.0.0.1', port })).to.equal(true);
    expect(await portAccepts({ host: '127.0.0.1', port: await closedPort() })).to.equal(false);
  });

  it('calls a port closed when it accepts and hangs up at once, as docker-proxy does with nothing behind it', async () => {
    const { server, port } = await listening(createServer((socket) => socket.end()));
    servers.push(server);
    expect(await portAccepts({ host: '127.0.0.1', port })).to.equal(false);
    // Asked only whether the port is taken, it is.
    expect(await portAccepts({ host: '127.0.0.1', port }, 0)).to.equal(true);
  });

  it('waits for a 2xx from an HTTP path', async () => {
    const { server, port } = await listening(createHttpServer((req, res) => {
      res.statusCode = req.url === '/health' ? 200 : 503;
      res.end();
    }));
    servers.push(server);
    expect(await httpAnswers(`http://127.0.0.1:${port}/health`)).to.equal(true);
    expect(await httpAnswers(`http://127.0.0.1:${port}/other`)).to.equal(false);
    expect(await httpAnswers(`http://127.0.0.1:${await closedPort()}/health`)).to.equal(false);
  });

  it('keeps the last lines of the log, cuts long ones, and matches a pattern across chunk boundaries', async () => {
    const tail = new LogTail(3, /listening on \d+/, 20);
    const stream = new PassThrough();
    tail.follow(stream);
    stream.write('one\ntwo\nlisten');
    stream.write('ing on 80');
    expect(tail.matched, 'no whole line yet').to.equal(false);
    stream.write('80\r\nabcdefghijklmnopqrstuvwxyz\nlast without newline');
    await new Promise((resolve) => setImmediate(resolve));
    expect(tail.matched).to.equal(true);
    stream.end();
    await tail.settle(1000);
    expect(tail.ended).to.equal(true);
    expect(tail.lines()).to.deep.equal(['listening on 8080', 'abcdefghijklmnopqrst… (26 characters)', 'last without newline']);
  });

  it('passes the harness credentials through, or makes throwaway ones the simulator image reads', () => {
    expect(containerCredentials({ clientId: 'acme', clientSecret: 's3cret-value' }, { env: {} }))
      .to.deep.equal({ clientId: 'acme', clientSecret: 's3cret-value', env: {} });
    const made = containerCredentials({}, { env: {} });
    expect(made.clientId).to.equal('rdx-container');
    expect(made.clientSecret).to.have.length.greaterThan(20);
    expect(made.env).to.deep.equal({ RDX_SIM_CLIENT_ID: 'rdx-container', RDX_SIM_CLIENT_SECRET: made.clientSecret });
    expect(containerCredentials({}, { env: { RDX_SIM_CLIENT_SECRET: 'given-by-env' } }).clientSecret).to.equal('given-by-env');
  });

  it('knows a local engine from a remote one, and whether DOCKER_HOST answers', async () => {
    expect(engineIsLocal(undefined)).to.equal(true);
    expect(engineIsLocal('unix:///var/run/docker.sock')).to.equal(true);
    expect(engineIsLocal('tcp://127.0.0.1:2375')).to.equal(true);
    expect(engineIsLocal('tcp://docker.example:2376')).to.equal(false);
    const { server, port } = await listening(createServer(() => undefined));
    servers.push(server);
    expect(await dockerHostAnswers(`tcp://127.0.0.1:${port}`)).to.equal(true);
    expect(await dockerHostAnswers(`tcp://127.0.0.1:${await closedPort()}`)).to.equal(false);
    expect(await dockerHostAnswers(`unix://${join(mkdtempSync(join(tmpdir(), 'rdx-sock-')), 'absent.sock')}`)).to.equal(false);
  });

  it('exits 3 at once when no engine can be reached, saying how to provide one, without a stack trace', () => {
    const socket = join(mkdtempSync(join(tmpdir(), 'rdx-noengine-')), 'docker.sock');
    const began = Date.now();
    const r = spawnSync(process.execPath, [cli, 'run', '--image', 'rdx-conformance:local', '--network', 'host', '--no-reports'], {
      cwd: packageRoot, encoding: 'utf8', timeout: 30_000, env: { ...process.env, DOCKER_HOST: `unix://${socket}` },
    });
    expect(r.status, r.stderr).to.equal(3);
    expect(Date.now() - began).to.be.below(15_000);
    expect(r.stderr).to.include('--image needs a Docker engine and none can be reached');
    expect(r.stderr).to.include(`DOCKER_HOST=unix://${socket}`);
    expect(r.stderr).to.include('TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1').and.include('TESTCONTAINERS_RYUK_DISABLED=true');
    expect(r.stderr).to.not.match(/\n\s+at /);
  });
});

/** A stand-in for testcontainers' container: inspect() answers the states given, one per call (the last repeats). */
function fakeContainer(states: (object | 'gone')[]): { container: Parameters<Readiness['waitUntilReady']>[0]; inspected: () => number } {
  let calls = 0;
  const container = {
    inspect: async () => {
      const s = states[Math.min(calls++, states.length - 1)];
      if (s === 'gone') throw Object.assign(new Error('no such container'), { statusCode: 404 });
      return { State: s };
    },
  } as unknown as Parameters<Readiness['waitUntilReady']>[0];
  return { container, inspected: () => calls };
}

const RUNNING = { Running: true, Restarting: false, Status: 'running', ExitCode: 0 };
const endpoint = (): { host: string; port: number } => ({ host: '127.0.0.1', port: 9 });

describe('container readiness: the wait strategy, on a stand-in container (no engine needed)', function () {
  this.timeout(10_000);

  it('is ready once the log line has been seen, while the container runs', async () => {
    const logs = new LogTail(5, /listening on/);
    const { container, inspected } = fakeContainer([RUNNING]);
    const ready = new Readiness({ waitFor: { kind: 'log', pattern: /listening on/ }, timeoutMs: 5_000, endpoint, logs });
    setTimeout(() => logs.push('booting\nlistening on 8080\n'), 300);
    await ready.waitUntilReady(container, {} as BoundPorts);
    expect(logs.matched).to.equal(true);
    expect(inspected(), 'the container was asked whether it runs before each probe').to.be.at.least(2);
  });

  it('gives up at once, with the exit code, when the container stops before it is ready', async () => {
    const logs = new LogTail(5, /listening on/);
    logs.end();
    const { container } = fakeContainer([RUNNING, { Running: false, Restarting: false, Status: 'exited', ExitCode: 3, OOMKilled: true, Error: 'boom' }]);
    const ready = new Readiness({ waitFor: { kind: 'log', pattern: /listening on/ }, timeoutMs: 60_000, endpoint, logs });
    const error = await ready.waitUntilReady(container, {} as BoundPorts).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(NotReadyError).and.include({ reason: 'exited', message: 'container stopped (exited) before it was ready' });
    expect((error as NotReadyError).state).to.deep.equal({ running: false, status: 'exited', exitCode: 3, oomKilled: true, error: 'boom' });
  });

  it('says "gone" when the engine no longer knows the container', async () => {
    const logs = new LogTail();
    logs.end();
    const ready = new Readiness({ waitFor: { kind: 'port' }, timeoutMs: 60_000, endpoint, logs });
    const error = await ready.waitUntilReady(fakeContainer(['gone']).container, {} as BoundPorts).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(NotReadyError).and.include({ reason: 'exited', message: 'container stopped (gone) before it was ready' });
    expect((error as NotReadyError).state).to.equal(undefined);
  });

  it('times out when a running container never answers, after the startup timeout testcontainers sets', async () => {
    const ready = new Readiness({ waitFor: { kind: 'http', path: '/health' }, timeoutMs: 60_000, endpoint: () => ({ host: '127.0.0.1', port: 9 }), logs: new LogTail() });
    expect(ready.isStartupTimeoutSet()).to.equal(false);
    ready.withStartupTimeout(600);
    expect([ready.isStartupTimeoutSet(), ready.getStartupTimeout()]).to.deep.equal([true, 600]);
    const error = await ready.waitUntilReady(fakeContainer([RUNNING]).container, {} as BoundPorts).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(NotReadyError).and.include({ reason: 'timeout' });
    expect((error as NotReadyError).message).to.match(/^not ready after \d+ ms$/);
  });

  it('reads a container state the engine does not give in time as unknown, not as stopped', async () => {
    const { container } = fakeContainer([RUNNING]);
    expect(await containerState(container)).to.deep.equal({ running: true, status: 'running' });
    const silent = { inspect: () => Promise.reject(new Error('engine busy')) } as unknown as Parameters<Readiness['waitUntilReady']>[0];
    expect(await containerState(silent)).to.equal(undefined);
  });

  it('puts an IPv6 host in brackets for a URL', () => {
    expect([urlHost('::1'), urlHost('[::1]'), urlHost('127.0.0.1')]).to.deep.equal(['[::1]', '[::1]', '127.0.0.1']);
  });
});
