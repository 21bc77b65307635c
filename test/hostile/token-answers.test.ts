// A target whose token endpoint answers is judged, not called unreachable (issue 36 §2): when the answer carries no
// usable token (compressed bytes without a coding, a body that is not JSON, no access_token, a server error), the
// run goes on, its token cases fail with the real cause, the cases that needed a token are not judged, the report is
// written, and the verdict is NOT CONFORMANT (exit 1). Exit 3 stays for nothing answering, a gateway whose service
// is down, credentials refused and no token endpoint at that URL; the console says which.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RunReport } from '../../src/core/report.js';
import { rdxProcess } from '../support/cli.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback.js';

const SECRET = 'token-answers-secret-81c2';
const TOKEN = { access_token: 'tok-81c2', token_type: 'Bearer', expires_in: 3600 };

type TokenAnswer = (res: ServerResponse) => void;
const json = (status: number, body: unknown): TokenAnswer => (res) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const ERROR_BODY = { message: 'failed', errors: [{ message: 'failed', data: null }] };

/** A target whose token endpoint answers as given; every other request is refused (401, the error body). */
async function target(token: TokenAnswer): Promise<LoopbackServer> {
  return listenOnLoopback(createServer((req, res) => {
    req.resume();
    if (req.url === '/oauth2/token') return token(res);
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    res.end(JSON.stringify(ERROR_BODY));
  }));
}

const JUDGED: { name: string; answer: TokenAnswer; cause: RegExp }[] = [
  {
    name: 'gzip bytes without Content-Encoding',
    answer: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(gzipSync(JSON.stringify(TOKEN)));
    },
    cause: /gzip-compressed, but no Content-Encoding says so/,
  },
  { name: 'a 200 whose JSON has no access_token', answer: json(200, { token_type: 'Bearer' }), cause: /no access_token|access_token/ },
  { name: 'a server error (500)', answer: json(500, ERROR_BODY), cause: /status 500/ },
];

const UNJUDGED: { name: string; answer?: TokenAnswer; says: string }[] = [
  { name: 'nothing listening', says: 'cannot reach the target' },
  { name: 'a gateway whose service is down (502)', answer: json(502, { message: 'bad gateway' }), says: 'cannot reach the target' },
  { name: 'credentials refused (401)', answer: json(401, ERROR_BODY), says: 'the target refused the credentials' },
  { name: 'no token endpoint there (404)', answer: json(404, ERROR_BODY), says: 'no token endpoint answers there' },
];

describe('a token endpoint that answers is judged, not unreachable', function () {
  this.timeout(120_000);
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'rdx-token-answers-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const run = (url: string, dir: string): ReturnType<typeof rdxProcess> => rdxProcess(['run', '--base-url', url, '--client-id', 'acme',
    '--endpoint', '1', '--endpoint', '3', '--report-dir', dir, '--no-progress'], { env: { RDX_CLIENT_SECRET: SECRET } });

  for (const { name, answer, cause } of JUDGED) {
    it(`${name}: the token cases fail with the cause, the rest are unjudged, the report is written, exit 1`, async () => {
      const server = await target(answer);
      const dir = join(work, name.replace(/\W+/g, '-'));
      try {
        const ended = await run(server.url, dir);
        expect(ended.code, ended.stderr).to.equal(1);
        const report = JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as RunReport;
        expect(report.summary.verdict).to.equal('NOT_CONFORMANT');
        const issued = report.cases.find((c) => c.id === 'token.issued');
        expect(issued?.verdict).to.equal('fail');
        expect(issued?.assertions.filter((a) => !a.passed).map((a) => a.message).join('\n')).to.match(cause);
        // The cases that needed the run's token are unjudged, each saying why (those that send none are judged).
        const errored = report.cases.filter((c) => c.verdict === 'error');
        expect(errored.length).to.be.greaterThan(5);
        for (const c of errored) expect(c.reason, c.id).to.match(/answered without a usable token/);
        expect(ended.stdout).to.include('answered without a usable token');
        expect(`${ended.stdout}${ended.stderr}`).to.not.include(SECRET);
      } finally {
        await server.close();
      }
    });
  }

  for (const { name, answer, says } of UNJUDGED) {
    it(`${name}: exit 3, saying so, and no report`, async () => {
      const server = answer ? await target(answer) : undefined;
      // A port that was just free: nothing listens there.
      const url = server?.url ?? await (async () => {
        const s = await target(json(200, TOKEN));
        await s.close();
        return s.url;
      })();
      const dir = join(work, name.replace(/\W+/g, '-'));
      try {
        const ended = await run(url, dir);
        expect(ended.code, ended.stderr).to.equal(3);
        expect(ended.stderr).to.include(says).and.not.include(SECRET);
        expect(existsSync(dir)).to.equal(false);
      } finally {
        await server?.close();
      }
    });
  }
});
