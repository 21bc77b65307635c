// No password of a URL the user gave in any message (issue 37 §2): the "not an http(s) URL" error of --base-url and
// --token-url, and the exit-3 message of a target that cannot be reached.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { loadProfile } from './profile.js';
import { UsageError } from '../errors.js';
import { packageRoot } from '../spec/index.js';

const PASSWORD = 'url-pass-5d1c';

function usageMessage(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).to.be.instanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
}

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('URLs with userinfo in messages', () => {
  it('the "not an http(s) URL" error of the base URL and the token URL quotes neither user nor password', () => {
    const wrong = [`ftp://user:${PASSWORD}@example.org/api`, `user:${PASSWORD}@example.org`, `http//user:${PASSWORD}@example.org`];
    for (const url of wrong) {
      for (const flags of [{ baseUrl: url }, { baseUrl: 'http://127.0.0.1:1', tokenUrl: url }]) {
        const message = usageMessage(() => loadProfile(flags, {}, '/nonexistent'));
        expect(message, 'the message says what was wrong').to.match(/^(base|token) URL ".*" is not an http\(s\) URL$/);
        expect(message.includes(PASSWORD), `password quoted for ${flags.tokenUrl ? 'token' : 'base'} URL`).to.equal(false);
      }
    }
  });

  it('takes RDX_SIGN_KEY, and each line of its key, as a secret of the run', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIPlaceholderKeyBodyForTheTest0000000000\n-----END PRIVATE KEY-----\n';
    const profile = loadProfile({}, { RDX_SIGN_KEY: pem }, '/nonexistent');
    const values = (profile.envExpansions ?? []).flatMap((e) => e.values);
    expect(values).to.include(pem).and.include('MC4CAQAwBQYDK2VwBCIEIPlaceholderKeyBodyForTheTest0000000000');
  });

  it('an unreachable target (exit 3) is named without its userinfo', async function () {
    this.timeout(60_000);
    const port = await closedPort();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_')));
    for (const args of [['--base-url', `http://user:${PASSWORD}@127.0.0.1:${port}`], ['--base-url', `http://127.0.0.1:${port}`, '--token-url', `http://user:${PASSWORD}@127.0.0.1:${port}/token`]]) {
      const r = spawnSync(process.execPath, [join(packageRoot, 'dist', 'src', 'cli', 'main.js'), 'run', ...args, '-R', 'none', '--report-dir', '/nonexistent/never'], {
        encoding: 'utf8', timeout: 60_000, env: { ...clean, RDX_CLIENT_ID: 'c', RDX_CLIENT_SECRET: 'client-secret-8e1f' },
      });
      expect(r.status, 'exit code').to.equal(3);
      expect(r.stderr).to.match(/cannot reach the target|no token/);
      expect(r.stderr).to.include(`127.0.0.1:${port}`);
      expect(`${r.stdout}${r.stderr}`.includes(PASSWORD), 'password in the output').to.equal(false);
    }
  });
});
