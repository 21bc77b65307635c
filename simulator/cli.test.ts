import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, runSimulate as simulate } from '../test/support/simulator.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

describe('rdx simulate', () => {
  it('prints how to use it, serves the API, and exits 0 on Ctrl-C', async () => {
    const result = await simulate(['--port', '0', '--records', '50', '--page-size', '3'], {}, async (out) => {
      const baseUrl = /listening on (\S+)/.exec(out)?.[1] ?? '';
      expect(out).to.include('client id:     rdx-client');
      expect(out).to.include('client secret: rdx-secret');
      expect(out).to.match(/curl -s -X POST \S+\/oauth2\/token/);
      const client = new Client(baseUrl);
      await client.login();
      const list = await client.get('/ats/job-offers');
      expect(list.body.data).to.have.length(3);
      await client.close();
    });
    expect(result.code, result.out).to.equal(0);
  });

  it('takes credentials from the environment and does not print a secret that is not the demo one', async () => {
    const result = await simulate(['--port', '0', '--records', '10'], { RDX_SIM_CLIENT_ID: 'acme', RDX_SIM_CLIENT_SECRET: 'top-secret-value' }, async (out) => {
      const client = new Client(/listening on (\S+)/.exec(out)?.[1] ?? '');
      await client.login('acme', 'top-secret-value');
      await client.close();
    });
    expect(result.code).to.equal(0);
    expect(result.out).to.include('(from RDX_SIM_CLIENT_SECRET)');
    expect(result.out).not.to.include('top-secret-value');
  });

  it('refuses an unknown variant with the list of known ones (exit 2)', async () => {
    const child = spawn(process.execPath, [MAIN, 'simulate', '--variant', 'nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).to.equal(2);
    expect(err).to.match(/unknown variant "nope"; known variants: .*relative-next-link/);
    expect(err).to.include('path-prefix');
    expect(err).not.to.match(/\n\s+at /);
  });
});
