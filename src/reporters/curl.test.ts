import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import type { Exchange } from '../core/results.js';
import { DEFAULT_VARIABLES, curlCommand } from './curl.js';

const exchange = (request: Exchange['request']): Exchange => ({ step: 'call', request, startedAt: '2026-01-01T00:00:00.000Z', elapsedMs: 1 });

/** The words bash makes of the command line, with curl swapped for printf so nothing is sent anywhere. */
function wordsOf(command: string, env: Record<string, string> = {}): string[] {
  expect(command.startsWith('curl ')).to.equal(true);
  const r = spawnSync('bash', ['-c', `printf '%s\\0' ${command.slice('curl '.length)}`], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', ...env } });
  expect(r.status, r.stderr).to.equal(0);
  return r.stdout.split('\0').slice(0, -1);
}

describe('curlCommand', () => {
  it('replays the Accept-Encoding the harness sent as --compressed, so the body prints decoded', () => {
    const line = curlCommand(exchange({ method: 'GET', url: 'http://127.0.0.1:8080/ats/job-offers', headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' } }));
    expect(wordsOf(line)).to.deep.equal(['-sS', '-i', '--compressed', 'http://127.0.0.1:8080/ats/job-offers', '-H', 'accept: application/json']);
  });

  it('turns a masked bearer token into "$RDX_ACCESS_TOKEN" and never prints the mask', () => {
    const line = curlCommand(exchange({ method: 'GET', url: 'http://127.0.0.1:8080/ats/job-offers', headers: { accept: 'application/json', authorization: 'Bearer ***' } }));
    expect(line).to.equal('curl -sS -i http://127.0.0.1:8080/ats/job-offers -H \'accept: application/json\' -H "authorization: Bearer $RDX_ACCESS_TOKEN"');
    expect(line).to.not.include('***');
    expect(wordsOf(line, { RDX_ACCESS_TOKEN: 'tok-1' })).to.deep.equal(['-sS', '-i', 'http://127.0.0.1:8080/ats/job-offers', '-H', 'accept: application/json', '-H', 'authorization: Bearer tok-1']);
  });

  it('turns the client_secret of a JSON token request into $RDX_CLIENT_SECRET and keeps the body byte for byte', () => {
    const body = '{"client_id":"acme","client_secret":"***","grant_type":"client_credentials"}';
    const line = curlCommand(exchange({ method: 'POST', url: 'http://127.0.0.1:8080/oauth2/token', headers: { 'content-type': 'application/json', 'content-length': '70' }, body }));
    expect(line).to.include('$RDX_CLIENT_SECRET').and.not.include('***').and.not.include('content-length');
    const words = wordsOf(line, { RDX_CLIENT_SECRET: 's3cr3t' });
    expect(words.slice(0, 4)).to.deep.equal(['-sS', '-i', '-X', 'POST']);
    expect(words.at(-1)).to.equal('{"client_id":"acme","client_secret":"s3cr3t","grant_type":"client_credentials"}');
  });

  it('handles a form-encoded token request and an access_token in the query', () => {
    const form = curlCommand(exchange({ method: 'POST', url: 'http://127.0.0.1:1/oauth2/token', headers: {}, body: 'grant_type=client_credentials&client_id=acme&client_secret=***' }));
    expect(wordsOf(form, { RDX_CLIENT_SECRET: 'x y' }).at(-1)).to.equal('grant_type=client_credentials&client_id=acme&client_secret=x y');
    const query = curlCommand(exchange({ method: 'GET', url: 'http://127.0.0.1:1/ats/job-offers?access_token=***&ref=a', headers: {} }));
    expect(wordsOf(query, { RDX_ACCESS_TOKEN: 'tok' })).to.include('http://127.0.0.1:1/ats/job-offers?access_token=tok&ref=a');
  });

  it('writes ${RDX_ACCESS_TOKEN} where letters or digits follow the mask, so the shell still reads that variable', () => {
    const line = curlCommand(exchange({ method: 'GET', url: 'http://127.0.0.1:1/ats/job-offers', headers: { authorization: 'Bearer ***abc', 'x-tag': '***_1' } }));
    expect(line).to.include('"authorization: Bearer ${RDX_ACCESS_TOKEN}abc"').and.include('"x-tag: ${RDX_ACCESS_TOKEN}_1"');
    expect(wordsOf(line, { RDX_ACCESS_TOKEN: 'tok' })).to.include.members(['authorization: Bearer tokabc', 'x-tag: tok_1']);
  });

  it('lets a caller name another variable, e.g. for an expired token', () => {
    const line = curlCommand(exchange({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: { authorization: 'Bearer ***' } }), { ...DEFAULT_VARIABLES, accessToken: 'RDX_EXPIRED_TOKEN' });
    expect(line).to.include('"authorization: Bearer $RDX_EXPIRED_TOKEN"');
  });

  it('quotes hostile text so the shell passes it through untouched: quotes, $, backticks, !, newlines', () => {
    const body = `{"title":"it's \`rm -rf\` $HOME \\"q\\" wow!","n":"a\nb\tc"}`;
    const line = curlCommand(exchange({ method: 'PATCH', url: "http://127.0.0.1:1/ats/job-offers/o'brien%20x", headers: { 'x-note': 'a "b" $c', authorization: 'Bearer ***' }, body }));
    expect(line).to.not.include('\n');
    const words = wordsOf(line, { RDX_ACCESS_TOKEN: 't', HOME: '/should-not-expand' });
    expect(words).to.include("http://127.0.0.1:1/ats/job-offers/o'brien%20x");
    expect(words).to.include('x-note: a "b" $c');
    expect(words).to.include('authorization: Bearer t');
    expect(words.at(-1)).to.equal(body);
  });

  it('concatenates quoted pieces when text beside a variable needs single quotes', () => {
    const line = curlCommand(exchange({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: { authorization: 'Bearer "***" $x' } }));
    expect(wordsOf(line, { RDX_ACCESS_TOKEN: 'tok' })).to.include('authorization: Bearer "tok" $x');
  });

  it('sends an empty body as an empty argument', () => {
    const line = curlCommand(exchange({ method: 'POST', url: 'http://127.0.0.1:1/x', headers: {}, body: '' }));
    expect(wordsOf(line).at(-1)).to.equal('');
  });
  it('writes masked Basic credentials as $RDX_BASIC_CREDENTIALS, not as the access token', () => {
    const line = curlCommand(exchange({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: { authorization: 'Basic ***' } }));
    expect(line).to.include('"authorization: Basic $RDX_BASIC_CREDENTIALS"');
  });
});
