// Test helpers: a simulator on a free loopback port and a small HTTP client for it (undici, real sockets).
import { Agent, request } from 'undici';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../simulator/index.js';
import { internalsOf } from '../../simulator/internals.js';
import type { Journal } from '../../simulator/journal.js';
import type { Store } from '../../simulator/store.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ErrorItem {
  message: string;
  data: unknown;
}

/** A response body as the spec's envelope shapes it (every member optional: tests assert what is there). */
export interface Body {
  message?: string;
  data?: unknown[];
  errors?: ErrorItem[];
  meta?: { next_link: string | null };
  [member: string]: unknown;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Body;
}

export type Item = Record<string, unknown>;

export interface SendOptions {
  body?: unknown;
  /** Sent as is, without JSON encoding. */
  raw?: string;
  headers?: Record<string, string>;
  /** Leave out the bearer token. */
  anonymous?: boolean;
}

export class Client {
  private readonly agent = new Agent({ keepAliveTimeout: 1_000, connections: 8 });
  token: string | undefined;

  constructor(readonly baseUrl: string) {}

  async send(method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    const url = /^https?:/.test(path) ? path : `${this.baseUrl}${path}`;
    const headers: Record<string, string> = { ...options.headers };
    let payload: string | undefined = options.raw;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (!options.anonymous && this.token && !('authorization' in headers)) headers['authorization'] = `Bearer ${this.token}`;
    const res = await request(url, {
      method: method as 'GET',
      headers,
      body: payload,
      dispatcher: this.agent,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await res.body.text();
    let body: Body;
    try {
      body = JSON.parse(text) as Body;
    } catch {
      body = {};
    }
    return { status: res.statusCode, headers: res.headers, text, body };
  }

  get(path: string, options?: SendOptions): Promise<Reply> {
    return this.send('GET', path, options);
  }

  post(path: string, body: unknown, options?: SendOptions): Promise<Reply> {
    return this.send('POST', path, { ...options, body });
  }

  put(path: string, body: unknown, options?: SendOptions): Promise<Reply> {
    return this.send('PUT', path, { ...options, body });
  }

  patch(path: string, body: unknown, options?: SendOptions): Promise<Reply> {
    return this.send('PATCH', path, { ...options, body });
  }

  delete(path: string, options?: SendOptions): Promise<Reply> {
    return this.send('DELETE', path, options);
  }

  async login(clientId = 'rdx-client', clientSecret = 'rdx-secret'): Promise<string> {
    const res = await this.post('/oauth2/token', { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }, { anonymous: true });
    const token = res.body['access_token'];
    if (res.status !== 200 || typeof token !== 'string') throw new Error(`login failed: ${res.status} ${res.text}`);
    this.token = token;
    return token;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The store and the journal of a simulator, which its public type does not show: tests look into them. */
export { internalsOf };

export interface Harness {
  sim: Simulator;
  client: Client;
  /** The simulator's store and journal (internalsOf(sim)). */
  readonly store: Store;
  readonly journal: Journal;
  close(): Promise<void>;
}

/** A simulator on 127.0.0.1 and a logged-in client; small seed volume unless the test asks for more. */
export async function startTest(options: SimulatorOptions = {}, login = true): Promise<Harness> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, records: 100, ...options });
  const client = new Client(sim.baseUrl);
  if (login) await client.login(sim.options.clientId, sim.options.clientSecret);
  const { store, journal } = internalsOf(sim);
  return {
    sim,
    client,
    store,
    journal,
    async close() {
      await client.close();
      await sim.close();
    },
  };
}

export function items(reply: Reply): Item[] {
  return (reply.body.data ?? []) as Item[];
}

/** Fills the path parameters of an operation's path template. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? name));
}

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** Runs `rdx simulate`, waits for its start-up lines, gives them to use(), then stops it with SIGINT (all within limitMs). */
export function runSimulate(
  args: string[], env: Record<string, string>, use: (out: string) => Promise<void>, limitMs = 15_000,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'simulate', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let started = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`rdx simulate did not start or stop in time:\n${out}`));
    }, limitMs);
    const onOut = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      if (!started && out.includes('Ctrl-C')) {
        started = true;
        use(out).then(() => child.kill('SIGINT'), (error: unknown) => {
          child.kill('SIGKILL');
          reject(error as Error);
        });
      }
    };
    child.stdout.on('data', onOut);
    child.stderr.on('data', onOut);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
