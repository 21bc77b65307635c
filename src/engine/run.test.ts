import { expect } from 'chai';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { defaults, type Profile } from '../config/profile.js';
import { runConformance } from './run.js';
import { UnreachableError, UsageError } from '../errors.js';
import type { EmbeddedTargetRequest } from '../core/embedded.js';
import { listenOnLoopback } from '../../test/support/loopback.js';

type Answer = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

/** A tiny target: a working token endpoint and one chosen answer for everything else. */
async function target(answer: Answer): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/oauth2/token') {
        const parsed = (() => { try { return JSON.parse(body || '{}') as { client_secret?: string }; } catch { return {}; } })();
        if (parsed.client_secret !== 'sekret-123') return json(res, 401, { message: 'bad client', errors: [{ message: 'invalid_client', data: null }] });
        return json(res, 200, { access_token: 'tok-abcdef-123', token_type: 'Bearer', expires_in: 3600 }, { 'cache-control': 'no-store' });
      }
      answer(req, body, res);
    });
  });
  return listenOnLoopback(server);
}

const profileFor = (baseUrl: string, timeoutMs = 2000): Profile => ({
  ...defaults(), baseUrl, clientId: 'rdx-test', clientSecret: 'sekret-123', http: { ...defaults().http, timeoutMs },
});

describe('runConformance against rule-breaking targets', function () {
  this.timeout(30_000);

  it('fails ENVELOPE.MESSAGE and ENVELOPE.ERROR_BODY when a refusal carries no message, and exits 1', async () => {
    const t = await target((_req, _b, res) => json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' }));
    try {
      const { report, exitCode } = await runConformance({ profile: profileFor(t.url), reporter: 'none', filters: { grep: '^auth\\.no-header\\.list-job-offers |^token\\.issued ' } });
      expect(exitCode).to.equal(1);
      expect(report.summary.conformant).to.equal(false);
      const token = report.cases.find((c) => c.id === 'token.issued');
      expect(token?.verdict, token?.reason).to.equal('pass');
      const noHeader = report.cases.find((c) => c.id === 'auth.no-header.list-job-offers');
      expect(noHeader?.verdict, noHeader?.reason).to.equal('fail');
      const failed = noHeader?.assertions.filter((a) => !a.passed).map((a) => a.clause);
      expect(failed).to.include.members(['ENVELOPE.MESSAGE', 'ENVELOPE.ERROR_BODY']);
      // The refusal itself was right: the MUST of the case's own clause passed.
      expect(noHeader?.assertions.find((a) => a.clause === 'AUTH.BEARER_REQUIRED')?.passed).to.equal(true);
    } finally {
      await t.close();
    }
  });

  it('fails AUTH.BEARER_REQUIRED when the token is ignored', async () => {
    const t = await target((_req, _b, res) => json(res, 200, { message: 'ok', data: [], meta: { next_link: null } }));
    try {
      const { report } = await runConformance({ profile: profileFor(t.url), reporter: 'none', filters: { grep: '^auth\\.garbage-token\\.list-job-offers ' } });
      const c = report.cases[0];
      expect(c?.verdict).to.equal('fail');
      expect(c?.assertions.filter((a) => !a.passed).map((a) => a.clause)).to.include('AUTH.BEARER_REQUIRED');
    } finally {
      await t.close();
    }
  });

  it('turns an HTML 500 into failures of the envelope clauses, not a crash', async () => {
    const t = await target((_req, _b, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>'));
    try {
      const { report } = await runConformance({ profile: profileFor(t.url), reporter: 'none', filters: { grep: '^auth\\.no-header\\.list-job-offers ' } });
      const failed = new Set(report.cases[0]?.assertions.filter((a) => !a.passed).map((a) => a.clause));
      expect([...failed]).to.include.members(['ENVELOPE.JSON_BODY', 'ENVELOPE.CONTENT_TYPE', 'ENVELOPE.ERROR_BODY', 'HTTP.NO_SERVER_ERROR']);
    } finally {
      await t.close();
    }
  });

  it('marks a case as error, with the reason, when the target stops answering', async () => {
    const t = await target((req) => req.socket.destroy());
    try {
      const { report, exitCode } = await runConformance({ profile: profileFor(t.url, 500), reporter: 'none', filters: { grep: '^auth\\.no-header\\.list-job-offers ' } });
      expect(report.cases[0]?.verdict).to.equal('error');
      expect(report.cases[0]?.reason).to.match(/no answer/);
      expect(exitCode).to.equal(1);
    } finally {
      await t.close();
    }
  });

  it('stops with exit code 3 when the credentials are refused, without printing the secret', async () => {
    const t = await target((_req, _b, res) => json(res, 200, {}));
    try {
      const profile = { ...profileFor(t.url), clientSecret: 'wrong-secret-456' };
      let caught: unknown;
      await runConformance({ profile, reporter: 'none' }).catch((e: unknown) => (caught = e));
      expect(caught).to.be.instanceOf(UnreachableError);
      expect((caught as Error).message).to.match(/refused the credentials/).and.not.include('wrong-secret-456');
    } finally {
      await t.close();
    }
  });

  it('stops with exit code 3 when the target cannot be reached', async () => {
    let caught: unknown;
    await runConformance({ profile: profileFor('http://127.0.0.1:9'), reporter: 'none' }).catch((e: unknown) => (caught = e));
    expect(caught).to.be.instanceOf(UnreachableError);
    expect((caught as Error).message).to.match(/cannot reach/);
  });

  it('starts the embedded target it is given when the profile names none, and refuses without one', async () => {
    let caught: unknown;
    await runConformance({ profile: defaults(), reporter: 'none' }).catch((e: unknown) => (caught = e));
    expect(caught).to.be.instanceOf(UsageError);
    expect((caught as Error).message).to.match(/no target: give --base-url/);
    const t = await target((_req, _b, res) => json(res, 401, { message: 'no token', errors: [{ message: 'unauthorized', data: null }] }, { 'www-authenticate': 'Bearer' }));
    const asked: EmbeddedTargetRequest[] = [];
    let closed = 0;
    try {
      let stopped: unknown;
      await runConformance({
        profile: { ...defaults(), seed: 7 },
        reporter: 'none',
        filters: { grep: '^token\\.issued ' },
        // A start function that answers with the tiny target, accepting the run's made-up credentials as its own.
        simulator: async (request) => {
          asked.push(request);
          return { baseUrl: t.url, expiredToken: () => 'expired-token', close: async () => void closed++ };
        },
      }).catch((e: unknown) => (stopped = e));
      expect(asked).to.have.length(1);
      expect(asked[0]?.seed).to.equal(7);
      expect(asked[0]?.clientId).to.equal('rdx-embedded');
      expect(closed, 'the run closes the target it started').to.equal(1);
      // The tiny target knows only its own secret, so the run stops at the token: what matters is who started what.
      expect(stopped).to.be.instanceOf(UnreachableError);
    } finally {
      await t.close();
    }
  });

  it('closes the target it started when the run is refused before its first request (a CA file that does not exist)', async () => {
    let closed = 0;
    let caught: unknown;
    await runConformance({
      profile: { ...defaults(), http: { ...defaults().http, ca: '/nonexistent/rdx-ca.pem' } },
      reporter: 'none',
      simulator: async () => ({ baseUrl: 'http://127.0.0.1:9', expiredToken: () => 'expired-token', close: async () => void closed++ }),
    }).catch((e: unknown) => (caught = e));
    expect(caught, 'the run is refused for its CA file').to.be.instanceOf(UsageError)
      .with.property('message').that.matches(/^--ca \/nonexistent\/rdx-ca\.pem: cannot read the file \(ENOENT/);
    // Left open, the started target would keep the caller's process alive after the error.
    expect(closed).to.equal(1);
  });

  it('keeps every secret out of the report', async () => {
    const t = await target((_req, _b, res) => json(res, 200, { message: 'echo tok-abcdef-123 sekret-123', data: [], meta: { next_link: null } }));
    try {
      const { report } = await runConformance({ profile: profileFor(t.url), reporter: 'none', filters: { grep: '^token\\.' } });
      const text = JSON.stringify(report);
      expect(text).to.not.include('sekret-123');
      expect(text).to.not.include('tok-abcdef-123');
    } finally {
      await t.close();
    }
  });
});
