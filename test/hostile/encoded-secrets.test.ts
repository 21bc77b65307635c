// A target that echoes the client secret and the token it issued as base64, base64url, hex and HTML character
// references (issue 37 §2): `rdx run --bundle` must keep every one of them out of the console, report.json,
// junit.xml, report.html (its data included) and the bundle. Raw, JSON- and percent-encoded echoes are the business
// of secrets.test.ts; this file holds the encodings a reader would decode with one more step.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { packageRoot } from '../../src/spec/index.js';
import { tarUnpack } from '../../src/reporters/tar.js';

const SECRET = 'enc-Secret/9+Qz~41Wm';
const TOKEN = 'tok3n_Enc-5Yp2Lx8Rk0Vb';

/** The encodings the target echoes, by name. */
function encodings(value: string): Record<string, string> {
  const bytes = Buffer.from(value, 'utf8');
  const refs = (radix: 10 | 16): string => [...value].map((c) => `&#${radix === 16 ? 'x' : ''}${(c.codePointAt(0) as number).toString(radix)};`).join('');
  return {
    base64: bytes.toString('base64'), base64url: bytes.toString('base64url'), hex: bytes.toString('hex'), HEX: bytes.toString('hex').toUpperCase(),
    'decimal references': refs(10), 'hex references': refs(16),
    // Inside a larger base64 blob, one byte after a 3-byte boundary.
    'base64 at offset 1': Buffer.concat([Buffer.from('\u0001'), bytes]).toString('base64'),
  };
}

function echoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/oauth2/token')) {
        res.end(JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      const echo = [...Object.entries(encodings(SECRET)), ...Object.entries(encodings(TOKEN))].map(([k, v]) => `${k}=${v}`).join(' ');
      res.statusCode = 400;
      res.end(JSON.stringify({ message: `refused; we saw ${echo}` }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    resolve({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server });
  }));
}

function rdxRun(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RDX_')));
  const child = spawn(process.execPath, [join(packageRoot, 'dist', 'src', 'cli', 'main.js'), ...args], { env: { ...clean, ...env } });
  let output = '';
  child.stdout.on('data', (c: Buffer) => { output += c.toString('utf8'); });
  child.stderr.on('data', (c: Buffer) => { output += c.toString('utf8'); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('no secret survives as base64, base64url, hex or HTML references (hostile target)', function () {
  this.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'rdx-encoded-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the echoed client secret and token out of the console, every report and the bundle', async () => {
    const { url, server } = await echoServer();
    let run: { code: number | null; output: string };
    try {
      run = await rdxRun(['run', '--base-url', url, '--grep', '^(auth\\.|envelope\\.)', '--report-dir', dir, '--bundle', '-R', 'rdx', '--timeout', '3000'],
        { RDX_CLIENT_ID: 'enc-client', RDX_CLIENT_SECRET: SECRET });
    } finally {
      await new Promise((r) => server.close(r));
    }
    const latest = join(dir, 'latest');
    const files = new Map<string, string>([['console', run.output]]);
    for (const name of readdirSync(latest)) {
      const bytes = readFileSync(join(latest, name));
      if (name === 'bundle.tar.gz') for (const e of tarUnpack(gunzipSync(bytes))) files.set(`bundle/${e.name}`, e.data.toString('utf8'));
      else files.set(name, bytes.toString('utf8'));
      const packed = /<script type="application\/gzip\+base64" id="rdx-data">([^<]*)<\/script>/.exec(bytes.toString('utf8'))?.[1];
      if (packed) files.set(`${name} (data)`, gunzipSync(Buffer.from(packed, 'base64')).toString('utf8'));
    }
    // The echo reached the reports (masked), so the test sees what it means to.
    expect(files.get('report.json')).to.include('refused; we saw base64=');
    const found: string[] = [];
    for (const [what, value] of [['client secret', SECRET], ['token', TOKEN]]) {
      for (const [form, text] of Object.entries(encodings(value as string))) {
        // Only the characters of partial bits at the edges of a base64 form may stay: look for its middle.
        const middle = form.startsWith('base64') ? text.slice(4, -4) : text;
        for (const [name, content] of files) if ([middle, JSON.stringify(middle).slice(1, -1), middle.replace(/&/g, '&amp;')].some((m) => content.includes(m))) found.push(`${what} as ${form} in ${name}`);
      }
    }
    // Names only: the test never prints a secret.
    expect(found).to.deep.equal([]);
  });
});
