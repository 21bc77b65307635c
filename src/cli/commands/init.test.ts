// rdx init --base-url against the bundled simulator (and a hostile stand-in): the fixture it writes is one the target
// holds and reads back, never a guess; the secret is never printed or written; target text is escaped.
import { expect } from 'chai';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../../simulator/index.js';
import { personaByName, type Persona } from '../../../simulator/personas/index.js';
import { loadProfile } from '../../config/profile.js';
import { packageRoot } from '../../spec/index.js';
import { rdxProcess } from '../../../test/support/cli.js';
import { listenOnLoopback } from '../../../test/support/loopback.js';
import { profileTemplate } from './init.js';

const SECRET = 'init-test-secret-4f1c';
const credentials = { RDX_CLIENT_ID: 'acme', RDX_CLIENT_SECRET: SECRET };

async function init(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rdx-init-target-'));
  const ended = await rdxProcess(['init', ...args], { cwd: dir, env, hangGuardMs: 60_000 });
  return { ...ended, dir };
}

const loaded = (dir: string): ReturnType<typeof loadProfile> => loadProfile({ config: join(dir, 'rdx.config.yaml') }, credentials, dir);

describe('rdx init --base-url', function () {
  this.timeout(60_000);
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('lists the job offers the simulator holds and writes the first one it reads back as the fixture', async () => {
    sim = await startSimulator({ port: 0, clientId: 'acme', clientSecret: SECRET });
    const r = await init(['--base-url', sim.baseUrl], credentials);
    expect(r.code, r.stderr).to.equal(0);
    const [fixture] = sim.atsJobOfferFixtureIds();
    expect(r.stdout).to.include(`chosen: fixtures.atsJobOfferIds: ["${fixture}"]`);
    expect(r.stdout.match(/^ {2}"JO-/gm)?.length, 'up to 10 candidates listed').to.equal(10);
    const profile = loaded(r.dir);
    expect(profile.baseUrl).to.equal(sim.baseUrl);
    expect(profile.fixtures.atsJobOfferIds).to.deep.equal([fixture]);
    for (const text of [r.stdout, r.stderr, readFileSync(join(r.dir, 'rdx.config.yaml'), 'utf8')]) expect(text).to.not.include(SECRET);
  });

  it('writes no fixture where {id} is not the reference: the references are listed to look up', async () => {
    sim = await startSimulator({ port: 0, clientId: 'acme', clientSecret: SECRET, personas: [personaByName('numeric-job-offer-ids') as Persona] });
    const r = await init(['--base-url', sim.baseUrl], credentials);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.include('none chosen').and.include('(404)').and.include('RECORD.ATS_NO_ID');
    expect(loaded(r.dir).fixtures.atsJobOfferIds).to.equal(undefined);
  });

  it('refused credentials: one line, exit 3, the profile still written without a fixture, the secret nowhere', async () => {
    sim = await startSimulator({ port: 0, clientId: 'acme', clientSecret: 'another' });
    const r = await init(['--base-url', sim.baseUrl], credentials);
    expect(r.code).to.equal(3);
    expect(r.stderr.trim().split('\n')).to.have.length(1);
    expect(r.stderr).to.include('refused the credentials').and.include('without a fixture');
    expect(r.stderr + r.stdout).to.not.include(SECRET);
    expect(loaded(r.dir).fixtures.atsJobOfferIds).to.equal(undefined);
  });

  it('no credentials: exit 2 and nothing written; credential flags without --base-url: exit 2', async () => {
    const r = await init(['--base-url', 'http://127.0.0.1:9'], { RDX_CLIENT_ID: '', RDX_CLIENT_SECRET: '' });
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('RDX_CLIENT_SECRET');
    expect(existsSync(join(r.dir, 'rdx.config.yaml'))).to.equal(false);
    expect((await init(['--client-id', 'acme'], {})).code).to.equal(2);
  });

  it('escapes what a hostile target lists, offers only a reference it read back, and sends a bounded number of requests', async () => {
    const hostile = ['evil\nbaseUrl: http://attacker.example', 'bell\u0007\u001b]0;owned\u0007', 'quote"back\\slash'];
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/oauth2/token') return res.end(JSON.stringify({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 }));
      if (req.url === '/ats/job-offers') {
        const data = hostile.map((reference) => ({ reference, title: `\u001b[2J${reference}`, publication_at: '2026-01-01T00:00:00Z' }));
        return res.end(JSON.stringify({ message: 'ok', data, meta: { next_link: 'http://attacker.example/steal' } }));
      }
      // Any {id} reads back the job offer of that reference.
      const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      return res.end(JSON.stringify({ message: 'ok', data: [{ reference: id, title: 't', publication_at: '2026-01-01T00:00:00Z' }] }));
    });
    const target = await listenOnLoopback(server);
    try {
      const r = await init(['--base-url', target.url], credentials);
      expect(r.code, r.stderr).to.equal(0);
      for (const c of ['\u0007', '\u001b']) expect(r.stdout).to.not.include(c);
      const text = readFileSync(join(r.dir, 'rdx.config.yaml'), 'utf8');
      for (const c of ['\u0007', '\u001b']) expect(text).to.not.include(c);
      const profile = loaded(r.dir);
      expect(profile.baseUrl, 'a listed reference cannot write a key').to.equal(target.url);
      expect(profile.fixtures.atsJobOfferIds).to.deep.equal(['quote"back\\slash']);
      // One token, one page (its next_link elsewhere never followed), one read that came back.
      expect(seen).to.deep.equal(['POST /oauth2/token', 'GET /ats/job-offers', `GET /ats/job-offers/${encodeURIComponent('quote"back\\slash')}`]);
    } finally {
      await target.close();
    }
  });
});

describe('rdx init profile', () => {
  it('cites only headings that exist in the docs it names', () => {
    const cites = [...profileTemplate().matchAll(/(docs\/[\w-]+\.md) \("([^"]+)"\)/g)];
    expect(cites.length).to.be.greaterThan(0);
    for (const [, doc, heading] of cites) {
      const headings = readFileSync(join(packageRoot, doc as string), 'utf8').split('\n').filter((l) => l.startsWith('#')).map((l) => l.replace(/^#+\s*/, ''));
      expect(headings, `${doc} ("${heading}")`).to.include(heading);
    }
  });
});
