/* eslint-disable no-control-regex -- finding control characters is what this module is for */
// Consoles stay clean: a target whose messages carry terminal control sequences (clear screen, window title, OSC 8
// hyperlink, bell, a C1 CSI, bidi overrides) must not get them onto the console through any reporter, while the
// JSON report keeps the text exactly, as JSON escapes.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaults, type Profile } from '../../src/config/profile.js';
import { runConformance, type RunOutcome } from '../../src/engine/run.js';
import { UnreachableError, reportFatal } from '../../src/errors.js';
import { ConsoleReporter } from '../../src/reporters/console.js';
import { escapeTerminal } from '../../src/core/terminal.js';

const TRICKS = '\u001b[2J\u001b[H\u001b]0;pwned\u0007\u001b]8;;http://127.0.0.2/\u001b\\click\u001b]8;;\u001b\\\u0007\u009b31m\u202eevil\u007f\r';
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;
/** What only the target sends: a reporter's own colours and carriage returns (list, on a TTY) are not target text. */
const TARGET_RAW = /\u001b\[2J|\u001b\[H|\u001b\]|\u0007|\u009b|\u202e|\u007f/;

async function trickster(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    const body = req.url?.startsWith('/oauth2/token')
      ? JSON.stringify({ access_token: 'terminal-token-5e0c1d9a', token_type: 'Bearer', expires_in: 3600 })
      : JSON.stringify({ message: `refused ${TRICKS}`, errors: [{ message: TRICKS, data: TRICKS }] });
    res.writeHead(req.url?.startsWith('/oauth2/token') ? 200 : 400, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs `work` with process.stdout and process.stderr captured, and hands back what was written. */
async function captured<T>(work: () => Promise<T>): Promise<{ value: T; out: string }> {
  const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  let out = '';
  const grab = ((chunk: string | Uint8Array): boolean => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = grab;
  process.stderr.write = grab;
  try {
    return { value: await work(), out };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
}

describe('escapeTerminal', () => {
  it('writes every C0 and C1 control character, DEL and bidi overrides as visible escapes', () => {
    expect(escapeTerminal('a\u001b[2Jb\u0007c\u009bd\u007fe\u202ef')).to.equal('a\\x1b[2Jb\\x07c\\x9bd\\x7fe\\u202ef');
    expect(escapeTerminal('line 1\nline 2\ttab\r')).to.equal('line 1\\nline 2\\ttab\\r');
    expect(escapeTerminal('line 1\nline 2\r', { keepNewlines: true })).to.equal('line 1\nline 2\\r');
    expect(escapeTerminal(TRICKS)).to.not.match(RAW);
    expect(escapeTerminal('plain text, accents é ü, CJK 日本, emoji 🎉')).to.equal('plain text, accents é ü, CJK 日本, emoji 🎉');
  });
});

describe('the console shows a target\'s control sequences escaped, never raw', function () {
  this.timeout(30_000);
  let target: { server: Server; url: string };
  before(async () => {
    target = await trickster();
  });
  after(async () => {
    target.server.closeAllConnections();
    await new Promise<void>((resolve) => target.server.close(() => resolve()));
  });
  const profile = (): Profile => ({
    ...defaults(), baseUrl: target.url, clientId: 'terminal', clientSecret: 'terminal-secret-3f2a',
    http: { ...defaults().http, timeoutMs: 2_000 },
  });
  // A failure with the message in the assertion (batch), a skip whose reason quotes it, an observation of it.
  const grep = '^(job-offers\\.batch-all-valid|envelope\\.list\\.job-offers|job-offers\\.get-by-reference|envelope\\.client-mistakes) ';

  for (const reporter of ['rdx', 'spec', 'dot', 'list', 'tap']) {
    it(`reporter ${reporter}: escaped on the console, exact in the report`, async () => {
      const { value, out } = await captured<RunOutcome>(() => runConformance({ profile: profile(), reporter: reporter === 'rdx' ? ConsoleReporter : reporter, filters: { grep } }));
      expect(value.exitCode).to.equal(1);
      expect(out, 'the console output').to.include('\\x1b[2J');
      const raw = TARGET_RAW.exec(out);
      expect(raw, `raw control character ${JSON.stringify(raw?.[0])} near ${JSON.stringify(out.slice(Math.max(0, (raw?.index ?? 0) - 60), (raw?.index ?? 0) + 20))}`).to.equal(null);
      // report.json keeps what the target said, written as JSON escapes.
      const json = JSON.stringify(value.report);
      expect(json).to.include('\\u001b[2J').and.to.include('\\u0007');
      const messages = value.report.cases.flatMap((c) => c.exchanges).map((e) => (e.response?.json as { message?: string } | undefined)?.message);
      expect(messages).to.include(`refused ${TRICKS}`);
    });
  }

  it('mocha reporter json: the console output is JSON that keeps the characters as \\u escapes', async () => {
    const { out } = await captured<RunOutcome>(() => runConformance({ profile: profile(), reporter: 'json', filters: { grep } }));
    expect(out).to.not.match(/[\u0000-\u0009\u000b-\u001f]/);
    expect(out).to.include('\\u001b[2J');
  });

  it('a fatal error quoting the target is escaped too', async () => {
    const { value, out } = await captured(() => Promise.resolve(reportFatal(new UnreachableError(`no token could be obtained: ${TRICKS}`))));
    expect(value).to.equal(3);
    expect(out).to.not.match(RAW);
    expect(out).to.include('\\x1b]0;pwned\\x07');
  });
});
