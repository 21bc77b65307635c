// No secret survives in any form (issue 29 §2): a token endpoint that echoes the refused request PHP-style,
// percent- and form-encoded; userinfo in the base URL and the proxy; ${env:…} values in the profile; a token equal
// to the target's host. Every file a run writes (report.json, junit.xml, report.html's data, profile.json, the
// bundle's manifest) is searched for every form of every secret.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { defaults, loadProfile, redactedProfile, type Profile } from '../../src/config/profile.js';
import { runConformance, type RunReport } from '../../src/engine/run.js';
import { writeReports } from '../../src/reporters/files.js';
import { curlFor } from '../../src/reporters/html-data.js';
import { tarUnpack } from '../../src/reporters/tar.js';
import { secretForms, secretIn, startHostile, type HostileServer } from './servers.js';
import { startSimulator } from '../../simulator/index.js';
import { personaByName, type Persona } from '../../simulator/personas/index.js';

/** Every file the run wrote, by name, as text; report.html's packed data and the bundle's entries unpacked. */
function writtenFiles(report: RunReport, dir: string): Map<string, string> {
  const written = writeReports(report, dir, { bundle: true });
  const files = new Map<string, string>();
  for (const file of written.files) {
    const bytes = readFileSync(file);
    const name = file.slice(written.dir.length + 1);
    if (name === 'bundle.tar.gz') {
      for (const entry of tarUnpack(gunzipSync(bytes))) files.set(`bundle/${entry.name}`, entry.data.toString('utf8'));
      continue;
    }
    files.set(name, bytes.toString('utf8'));
    const packed = /<script type="application\/gzip\+base64" id="rdx-data">([^<]*)<\/script>/.exec(bytes.toString('utf8'))?.[1];
    if (packed) files.set(`${name} (data)`, gunzipSync(Buffer.from(packed, 'base64')).toString('utf8'));
  }
  return files;
}

/** Where any form of the secret turns up in the files: in their text, or in their JSON once parsed. */
function leaks(files: Map<string, string>, secret: string): string[] {
  const found: string[] = [];
  for (const [name, text] of files) {
    for (const form of secretForms(secret)) if (text.includes(form)) found.push(`${name}: ${form}`);
    if (/\.json|\(data\)/.test(name)) {
      const inside = secretIn(JSON.parse(text) as unknown, secret);
      if (inside) found.push(`${name} (parsed): ${inside}`);
    }
  }
  return found;
}

describe('no secret survives in any form (hostile targets)', function () {
  this.timeout(60_000);
  let server: HostileServer | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-secrets-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('masks the client secret a token endpoint echoes PHP-style (\\/, \\u00dc), percent- and form-encoded', async () => {
    server = await startHostile('token-echo');
    const secret = 'pA/ss+w0rd/Ün-7c1e';
    const profile: Profile = { ...defaults(), baseUrl: server.url, clientId: 'echo-client', clientSecret: secret, http: { ...defaults().http, timeoutMs: 2_000 } };
    const { report } = await runConformance({ profile, reporter: 'none', filters: { grep: '^token\\.' } });
    // The echo came back: the refused requests' bodies are in the report, masked.
    const echoed = report.cases.flatMap((c) => c.exchanges).filter((e) => e.response?.status === 400 && e.response.body.includes('"request"'));
    expect(echoed.length, 'refused token requests echoed').to.be.at.least(2);
    expect(echoed.some((e) => e.response?.body.includes('client_secret'))).to.equal(true);
    expect(secretIn(report, secret)).to.equal(undefined);
    expect(leaks(writtenFiles(report, dir), secret)).to.deep.equal([]);
  });

  it('keeps the target\'s identity when a token equals its host, strips userinfo, and shows ${env:…} strings as written', async () => {
    server = await startHostile('token-is-host');
    const port = new URL(server.url).port;
    const envValue = 'id-source-credential-5e2b';
    writeFileSync(join(dir, 'rdx.config.yaml'), [
      `baseUrl: http://user:base-url-pass-91d3@127.0.0.1:${port}`,
      'atsJobOfferIdSource:',
      '  command: "curl -s -H \'Authorization: Bearer ${env:RDX_HALT_ID_TOKEN}\' http://ids.example/id/{reference}"',
      '',
    ].join('\n'));
    const profile = loadProfile({ clientId: 'host-client', clientSecret: 'host-client-secret-4a1f', timeout: 2_000 }, { RDX_HALT_ID_TOKEN: envValue }, dir);
    const { report } = await runConformance({ profile, reporter: 'none', filters: { grep: '^(token\\.issued|auth\\.no-header\\.list-job-offers) ' } });
    expect(report.run.target.baseUrl).to.equal(`http://127.0.0.1:${port}/`);
    const shown = report.run.options['profile'] as Record<string, unknown>;
    expect(shown['baseUrl']).to.equal(`http://127.0.0.1:${port}/`);
    expect(shown['atsJobOfferIdSource']).to.deep.equal({ command: 'curl -s -H \'Authorization: Bearer ${env:RDX_HALT_ID_TOKEN}\' http://ids.example/id/{reference}' });
    // The token (127.0.0.1) is masked where it is a token, in the Authorization header, and nowhere in a URL's origin.
    const token = report.cases.find((c) => c.id === 'token.issued')?.exchanges[0];
    expect(token?.response?.body).to.include('"access_token":"***"');
    const listed = report.cases.find((c) => c.id === 'auth.no-header.list-job-offers')?.exchanges ?? [];
    for (const ex of [token, ...listed]) expect(ex?.request.url.startsWith(`http://127.0.0.1:${port}/`), ex?.request.url).to.equal(true);
    const files = writtenFiles(report, dir);
    expect(JSON.parse(files.get('bundle/manifest.json') ?? '{}')).to.have.nested.property('run.target', `http://127.0.0.1:${port}/`);
    expect(files.get('junit.xml')).to.include(`against http://127.0.0.1:${port}`).and.not.include('***:');
    expect(files.get('report.html')).to.include(`http://127.0.0.1:${port}`);
    for (const [name, text] of files) expect(text, name).to.not.include('http://***');
    expect(curlFor(token as NonNullable<typeof token>)).to.match(new RegExp(`^curl .* http://127\\.0\\.0\\.1:${port}/oauth2/token `));
    for (const secret of ['base-url-pass-91d3', envValue, 'host-client-secret-4a1f']) expect(leaks(files, secret), secret).to.deep.equal([]);
  });

  it('shows a proxy URL without its userinfo and expanded environment values as written', () => {
    const profile: Profile = {
      ...defaults(), baseUrl: 'https://u:p-base@staging.example/api', clientSecret: 'x',
      http: { ...defaults().http, proxy: 'http://proxy-user:proxy-pass-77@proxy.example:3128' },
      fixtures: { atsJobOfferIds: ['JO-1'] },
      envExpansions: [{ key: 'fixtures', written: '${env:JOB_OFFER}', expanded: 'JO-1', values: ['JO-1'] }],
    };
    const shown = JSON.stringify(redactedProfile(profile));
    expect(shown).to.not.include('proxy-pass-77').and.not.include('proxy-user').and.not.include('p-base');
    expect(shown).to.include('"proxy":"http://proxy.example:3128/"').and.include('"baseUrl":"https://staging.example/api"');
    expect(shown).to.include('"atsJobOfferIds":["${env:JOB_OFFER}"]').and.not.include('envExpansions');
  });

  it('masks every ${env:…} value of the profile, idSources included, and strips a lookup URL\'s userinfo (issue 37 §2)', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, clientId: 'ids', clientSecret: 'ids-client-secret-0b7d', personas: [personaByName('message-only-batch') as Persona] });
    try {
      const port = new URL(sim.baseUrl).port;
      const password = 'lookup-pass-3c9e';
      const key = 'lookup-key-7f31a';
      writeFileSync(join(dir, 'rdx.config.yaml'), [
        'idSources:',
        '  applicationStep:',
        `    url: "http://lookup:${password}@127.0.0.1:${port}/no-such-lookup?key=\${env:RDX_LOOKUP_KEY}&a={application_ats_id}&s={step}&at={recorded_at}"`,
        '',
      ].join('\n'));
      const loaded = loadProfile({ baseUrl: sim.baseUrl, clientId: 'ids', clientSecret: 'ids-client-secret-0b7d' }, { RDX_LOOKUP_KEY: key }, dir);
      const { report } = await runConformance({ profile: loaded, reporter: 'none', filters: { grep: '^application-steps\\.put-clears-omitted ' } });
      const c = report.cases.find((x) => x.id === 'application-steps.put-clears-omitted');
      // The lookup failed and says so, with its URL as the report keeps URLs: no userinfo, the key masked.
      expect(c?.reason).to.include(`(GET http://127.0.0.1:${port}/no-such-lookup?key=***&`);
      const shown = report.run.options['profile'] as { idSources?: { applicationStep?: { url?: string } } };
      expect(shown.idSources?.applicationStep?.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/no-such-lookup\?key=\$\{env:RDX_LOOKUP_KEY\}&/);
      const files = writtenFiles(report, dir);
      for (const secret of [password, key]) {
        expect(leaks(files, secret).length, 'a form of the secret in the files').to.equal(0);
        expect(secretIn(report, secret), 'a form of the secret in the report').to.equal(undefined);
      }
    } finally {
      await sim.close();
    }
  });
});
