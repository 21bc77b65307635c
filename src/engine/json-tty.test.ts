/* eslint-disable no-control-regex -- finding control characters is what this test is for */
// `rdx run -R json` on a terminal (issue #29 §4): JSON.stringify writes C0 controls as \u escapes but leaves DEL, the
// C1 controls (a lone 0x9b is a CSI) and bidi overrides raw. On a TTY they are written as \u escapes too, so the
// terminal acts on none of them and the JSON parses to the same value; piped, the output is mocha's own.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaults, type Profile } from '../config/profile.js';
import { runConformance } from './run.js';

const TRICKS = '\u009b31m\u202eevil\u2066x\u2069\u007f\u001b]0;title\u0007';
/** Raw on the terminal: anything a terminal acts on. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Runs `work` with stdout captured and, when `tty`, looking like a terminal. */
async function onStdout(tty: boolean, work: () => Promise<unknown>): Promise<string> {
  const { write } = process.stdout;
  const wasTty = process.stdout.isTTY;
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array): boolean => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  process.stdout.isTTY = tty;
  try {
    await work();
    return out;
  } finally {
    process.stdout.write = write;
    process.stdout.isTTY = wasTty;
  }
}

/** The messages of the failures in mocha's JSON output. */
const failureMessages = (out: string): string[] =>
  (JSON.parse(out) as { failures: { err: { message?: string } }[] }).failures.map((f) => f.err.message ?? '');

describe('rdx run -R json on a terminal', function () {
  this.timeout(30_000);
  let server: Server;
  let profile: Profile;
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      const token = req.url?.startsWith('/oauth2/token');
      const body = token ? JSON.stringify({ access_token: 'json-tty-token-7c1d', token_type: 'Bearer', expires_in: 3600 })
        : JSON.stringify({ message: `refused ${TRICKS}`, errors: [{ message: TRICKS }] });
      res.writeHead(token ? 200 : 400, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    profile = { ...defaults(), baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, clientId: 'tty', clientSecret: 'tty-secret-91b2', http: { ...defaults().http, timeoutMs: 2_000 } };
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const run = (): Promise<unknown> => runConformance({ profile, reporter: 'json', filters: { grep: '^job-offers\\.batch-all-valid ' } });

  it('writes C1 controls, DEL and bidi overrides as \\u escapes: valid JSON with the same values, nothing raw', async () => {
    const piped = await onStdout(false, run);
    // The control: the target's text does reach mocha's JSON raw when stdout is not a terminal.
    expect(piped).to.include('\u009b31m\u202eevil');
    const tty = await onStdout(true, run);
    expect(RAW.exec(tty)?.[0], 'a raw control character on the terminal').to.equal(undefined);
    expect(tty).to.include('\\u009b31m\\u202eevil\\u2066x\\u2069\\u007f');
    const messages = failureMessages(tty);
    expect(messages.some((m) => m.includes(TRICKS))).to.equal(true);
    expect(messages).to.deep.equal(failureMessages(piped));
  });
});
