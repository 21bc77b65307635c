// Errors users can act on: each test runs the mistake a user makes and checks that the message names the fix.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interpretations, packageRoot } from '../spec/index.js';
import { loadProfile, readConfigFile } from '../config/profile.js';
import { EXIT, UsageError, internalErrorLine, reportFatal } from '../errors.js';
import { didYouMean, editDistance } from '../core/suggest.js';
import { tokenFailure } from '../http/auth.js';
import { runConformance } from '../engine/run.js';
import { profileTemplate } from './commands/init.js';
import { embeddedSimulator } from '../compose.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function rdx(args: string[], cwd = packageRoot, env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, env: { ...process.env, RDX_DEBUG: '', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** rdx in a child process without blocking this one, for tests whose target server runs here. */
function rdxAsync(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: packageRoot, env: { ...process.env, RDX_DEBUG: '', ...env } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const STACK_FRAME = /\n\s+at /;

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rdx-errors-')), name);
  writeFileSync(file, text);
  return file;
}

describe('errors users can act on', function () {
  // Each test starts rdx in a child process; on a loaded machine a start takes seconds.
  this.timeout(90_000);

  describe('internal errors', () => {
    it('are exit 70 with one line naming what happened, where, and where to report it; no stack trace', () => {
      const writes: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string) => writes.push(String(chunk))) as unknown as typeof process.stderr.write;
      let code: number;
      try {
        code = reportFatal(new TypeError("Cannot read properties of undefined (reading 'cases')"), false);
      } finally {
        process.stderr.write = write;
      }
      expect(code).to.equal(EXIT.INTERNAL).and.equal(70);
      const text = writes.join('');
      expect(text.trim().split('\n'), text).to.have.length(1);
      expect(text).to.include('internal error').and.include("reading 'cases'").and.include('report it').and.include('--debug');
      expect(text).to.match(/\(at [^)]*errors\.test\.(js|ts):\d+\)/);
      expect(text).to.not.match(STACK_FRAME);
    });

    it('print the stack trace with --debug', () => {
      const writes: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string) => writes.push(String(chunk))) as unknown as typeof process.stderr.write;
      try {
        reportFatal(new Error('boom'), true);
      } finally {
        process.stderr.write = write;
      }
      expect(writes.join('')).to.match(STACK_FRAME);
    });

    it('say which package is missing when an import fails (a broken install), still exit 70', () => {
      const error = Object.assign(new Error("Cannot find package 'mocha' imported from /x/dist/src/engine/run.js"), { code: 'ERR_MODULE_NOT_FOUND' });
      expect(internalErrorLine(error)).to.match(/the package mocha is not installed/).and.include('report it');
    });

    it('end the process at once even when the failing command left a server open (the embedded simulator)', () => {
      // --ca is read after the embedded simulator has started; its error must not leave rdx hanging on that server.
      const started = Date.now();
      const r = rdx(['run', '--ca', '/nonexistent/ca.pem', '--reporter', 'none', '--no-reports']);
      expect(r.code, `still running after ${Date.now() - started} ms: ${r.stderr}`).to.equal(EXIT.USAGE);
      expect(r.stderr).to.include('--ca /nonexistent/ca.pem');
    });

    it('a config path that is a directory is a usage error naming it, not an internal error', () => {
      const r = rdx(['run', '--config', tmpdir(), '--no-reports']);
      expect(r.code).to.equal(EXIT.USAGE);
      expect(r.stderr).to.include(`config file ${tmpdir()} cannot be read: it is a directory`);
    });

    it('--debug is a global option every command accepts', () => {
      for (const command of ['run', 'verify']) {
        const r = rdx([command, '--help']);
        expect(r.code, `${command}: ${r.stderr}`).to.equal(0);
        expect(r.stdout, command).to.include('--debug');
      }
      expect(rdx(['list', '--debug', '--level', 'MUST']).code).to.equal(0);
    });
  });

  describe('the token endpoint', () => {
    let server: Server;
    let base: string;
    before(async () => {
      // Answers 404 to everything: a base URL that points at some web server, but not at the API.
      server = createServer((_req, res) => {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('answering 404 says no token endpoint answered at that URL and names --base-url and --token-url, exit 3', async () => {
      const r = await rdxAsync(['run', '--base-url', `${base}/wrong`, '--client-id', 'acme', '--reporter', 'none', '--no-reports'], { RDX_CLIENT_SECRET: 'not-printed-secret' });
      expect(r.code, r.stderr).to.equal(EXIT.UNREACHABLE);
      expect(r.stderr).to.include(`no token endpoint answered at that URL (status 404)`).and.include(`${base}/wrong/oauth2/token`);
      expect(r.stderr).to.include('--base-url').and.include('--token-url');
      expect(r.stderr).to.not.include('client id and secret').and.not.include('not-printed-secret');
    });

    it('refusing the credentials points at the client id and secret instead', () => {
      expect(tokenFailure('http://h/oauth2/token', 401, true)).to.include('client id and secret').and.not.include('--token-url');
      expect(tokenFailure('http://h/oauth2/token', 400, true)).to.include('client id and secret');
      expect(tokenFailure('http://h/oauth2/token', 200, false, 'the body is not JSON: its bytes look gzip-compressed, but no Content-Encoding says so')).to.include('status 200: the body is not JSON: its bytes look gzip');
      expect(tokenFailure('http://h/oauth2/token', 503, true)).to.include('status 503');
    });
  });

  describe('flags', () => {
    it('--timeout 1 says the unit, the range and what was given, exit 2', () => {
      const r = rdx(['run', '--timeout', '1', '--no-reports']);
      expect(r.code).to.equal(EXIT.USAGE);
      expect(r.stderr).to.include('--timeout takes milliseconds').and.include('at least 100').and.include('got 1');
      expect(rdx(['run', '--timeout', 'soon', '--no-reports']).stderr).to.include('not a number');
      expect(rdx(['run', '--retries', '9', '--no-reports']).stderr).to.include('from 0 to 5').and.include('got 9');
    });

    it('a mistyped flag gets the flag it resembles', () => {
      const r = rdx(['run', '--base-ur1', 'http://127.0.0.1:9']);
      expect(r.code).to.equal(EXIT.USAGE);
      expect(r.stderr).to.include('unknown option: --base-ur1 (did you mean --base-url?)');
      expect(r.stderr, 'named once, as typed').to.not.include('baseUr1');
      expect(rdx(['simulate', '--prot', '0']).stderr).to.include('did you mean --port?');
      expect(rdx(['list', '--zzzzzzzz']).stderr).to.include('unknown option: --zzzzzzzz;').and.not.include('did you mean');
    });

    it('a mistyped command gets the command it resembles', () => {
      const r = rdx(['rnu']);
      expect(r.code).to.equal(EXIT.USAGE);
      expect(r.stderr).to.include('unknown command "rnu": did you mean `rdx run`?');
      expect(r.stderr).to.not.match(STACK_FRAME);
    });
  });

  describe('the config file', () => {
    it('a YAML error shows file:line:col and the lines it points at, not a dangling colon', () => {
      const file = tempFile('rdx.config.yaml', 'baseUrl: http://127.0.0.1:9\nhttp:\n  timeoutMs: 5000\n retries: 2\n');
      const r = rdx(['run', '--config', file, '--no-reports']);
      expect(r.code).to.equal(EXIT.USAGE);
      const first = r.stderr.split('\n')[0] ?? '';
      expect(first).to.include(`${file}:4:1: not valid YAML:`).and.not.match(/:\s*$/);
      expect(r.stderr).to.include('3 |   timeoutMs: 5000').and.include('4 |  retries: 2').and.match(/\n\s+\| \^/);
    });

    it('an unknown key gets "did you mean" with the key it resembles, at its line', () => {
      const file = tempFile('rdx.config.yaml', 'baseUrl: http://x\nhttp:\n  timeout: 5000\ndeclared:\n  paginatonEnd: "null"\n');
      let message = '';
      try {
        readConfigFile(file, {});
      } catch (error) {
        expect(error).to.be.instanceOf(UsageError);
        message = (error as Error).message;
      }
      expect(message).to.include(`${file}:3: http.timeout: unknown field timeout: did you mean \`timeoutMs\`?`);
      expect(message).to.include(`${file}:5: declared.paginatonEnd: unknown key paginatonEnd: did you mean \`paginationEnd\`?`);
    });

    it('a value out of range says what was given', () => {
      const file = tempFile('rdx.config.yaml', 'http:\n  timeoutMs: 5\n');
      expect(() => readConfigFile(file, {})).to.throw(UsageError, /:2: http\.timeoutMs: must be >= 100; got 5/);
    });
  });

  describe('rdx init', () => {
    it('every example value in the template is one the register allows, and the key is left open otherwise', () => {
      const text = profileTemplate();
      const keys: string[] = [];
      let judged = 0;
      for (const m of text.matchAll(/^ {2}# ([A-Z_]+): .*\n {2}# {3}allowed: (.*)\n {2}# {3}the simulator: .*\n {2}# (\w+):(.*)$/gm)) {
        const [, id, allowed = '', key = '', rest = ''] = m;
        keys.push(key);
        const value = rest.trim();
        if (value.startsWith('#')) continue;
        if (allowed.includes(' | ')) {
          expect(allowed.split(' | '), `${id}: ${key}: ${value}`).to.include(JSON.parse(value) === null ? 'null' : String(JSON.parse(value)));
          judged++;
        }
      }
      // Every open point with a profile key has its entry (so the loop saw them all), and some have a value to judge.
      expect(keys.sort()).to.deep.equal(interpretations().flatMap((i) => (i.key === null ? [] : [i.key])).sort());
      expect(judged, 'examples among a list of allowed values').to.be.at.least(1);
      expect(text).to.not.include('reject-duplicate').and.not.include('"inclusive"');
    });

    it('with every example uncommented, the simulator matches every declaration (the template agrees with it)', async function () {
      this.timeout(120_000);
      const dir = mkdtempSync(join(tmpdir(), 'rdx-init-agree-'));
      const file = join(dir, 'rdx.config.yaml');
      // Uncomment the declared examples only; the base URL goes, so that the run uses the bundled simulator.
      const template = profileTemplate().replace(/^baseUrl:.*$/m, '');
      const start = template.indexOf('\ndeclared:\n');
      const end = template.indexOf('\n\n', start + 1);
      const text = template.slice(0, start) + template.slice(start, end).replace(/^ {2}# ([a-z]\w*): ([^#\s].*)$/gm, '  $1: $2') + template.slice(end);
      writeFileSync(file, text);
      const profile = loadProfile({ config: file }, { RDX_CLIENT_ID: 'x', RDX_CLIENT_SECRET: 'y' }, dir);
      expect(Object.keys(profile.declared).length, 'declared keys').to.be.greaterThan(10);
      delete profile.clientId;
      delete profile.clientSecret;
      const { report } = await runConformance({ profile, reporter: 'none', simulator: embeddedSimulator() });
      const mismatches = report.cases.flatMap((c) => c.assertions.filter((a) => a.clause === 'PROFILE.DECLARED_MATCHES' && !a.passed).map((a) => `${c.id}: ${a.message}`));
      const compared = report.cases.flatMap((c) => c.assertions.filter((a) => a.clause === 'PROFILE.DECLARED_MATCHES'));
      expect(compared.length, 'declarations compared').to.be.greaterThan(5);
      expect(mismatches).to.deep.equal([]);
      expect(readFileSync(file, 'utf8')).to.include('paginationEnd: "null"');
    });
  });

  describe('did you mean', () => {
    it('finds near misses and stays quiet on unrelated words', () => {
      expect(editDistance('rnu', 'run')).to.equal(1);
      expect(didYouMean('timeout', ['timeoutMs', 'retries'])).to.equal('timeoutMs');
      expect(didYouMean('base-ur1', ['base-url', 'token-url'])).to.equal('base-url');
      expect(didYouMean('colour', ['baseUrl', 'seed'])).to.equal(undefined);
    });
  });
});
