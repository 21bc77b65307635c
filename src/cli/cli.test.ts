import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../spec/index.js';
import { readConfigFile, loadProfile } from '../config/profile.js';
import { profileTemplate } from './commands/init.js';
import { idSourceProblem, idSourcesOf } from '../engine/id-sources.js';
import { UsageError } from '../errors.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function rdx(args: string[], env: Record<string, string> = {}, cwd = packageRoot): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('rdx CLI', function () {
  this.timeout(30_000);

  it('prints help listing every command, exit 0', () => {
    const r = rdx(['--help']);
    expect(r.code).to.equal(0);
    for (const c of ['run', 'list', 'validate', 'init', 'simulate']) expect(r.stdout).to.include(`rdx ${c}`);
  });

  it('exits 2 with a one-line message on an unknown command or flag, never a stack trace', () => {
    const r = rdx(['run', '--no-such-flag']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('unknown option: --no-such-flag');
    expect(r.stderr).to.not.match(/\n\s+at /);
  });

  it('exits 2 on a bad --shard', () => {
    const r = rdx(['list', '--shard', '5/2']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('--shard 5/2');
  });

  it('lists cases with levels, tiers and endpoint coverage', () => {
    const r = rdx(['list', '--level', 'MUST', '--endpoint', 'requestToken']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.match(/token\.issued\s+MUST/);
    expect(r.stdout).to.not.match(/OBSERVE/);
  });

  it('validates the bundled suites', () => {
    const r = rdx(['validate']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^ok: \d+ case\(s\)/);
  });

  it('reports a bad suite file as file:line: field: message, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rdx-cli-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'cases:\n  - id: Bad Id\n    title: x\n');
    const r = rdx(['validate', file]);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/broken\.yaml:2: \/cases\/0\/id: must match pattern/);
    expect(r.stderr).to.match(/broken\.yaml:2: \/cases\/0: must have required property 'level'/);
  });

  it('writes a commented profile that loads back once its env references are set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rdx-init-'));
    const r = rdx(['init'], {}, dir);
    expect(r.code, r.stderr).to.equal(0);
    const file = join(dir, 'rdx.config.yaml');
    expect(readFileSync(file, 'utf8')).to.include('paginationEnd');
    expect(rdx(['init'], {}, dir).code, 'refuses to overwrite').to.equal(2);
    const profile = loadProfile({ config: file }, { RDX_CLIENT_ID: 'acme', RDX_CLIENT_SECRET: 'shh' }, dir);
    expect(profile.clientId).to.equal('acme');
    expect(profile.baseUrl).to.equal('https://staging.example.com/api');
  });

  it('writes the id sources, commented, with an example of each form that loads and passes the run\'s checks once uncommented', () => {
    const template = profileTemplate();
    const start = template.indexOf('\n# idSources:\n');
    expect(start, 'the template has an idSources section').to.be.greaterThan(0);
    const end = template.indexOf('\n\n', start + 1);
    // Uncomment the section: "# x" at the start of a line becomes "x"; its own comments ("  # …") stay comments.
    const section = template.slice(start, end).replace(/^# ?/gm, '');
    for (const form of ['file:', 'command:', 'url:']) expect(section, form).to.include(form);
    const dir = mkdtempSync(join(tmpdir(), 'rdx-init-ids-'));
    const file = join(dir, 'rdx.config.yaml');
    writeFileSync(file, template.slice(0, start) + section + template.slice(end));
    const profile = loadProfile({ config: file }, { RDX_CLIENT_ID: 'acme', RDX_CLIENT_SECRET: 'shh' }, dir);
    const sources = idSourcesOf(profile);
    expect(Object.keys(sources).sort()).to.deep.equal(['application-step', 'job-offer', 'jobboard-activity', 'jobboard-job-offer']);
    for (const [resource, source] of Object.entries(sources)) {
      expect(idSourceProblem(source, profile.baseUrl, resource as keyof typeof sources), resource).to.equal(undefined);
    }
  });

  it('validate on a profile checks it as a profile and says how to run it; its errors are file:line: key.path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rdx-validate-profile-'));
    expect(rdx(['init'], {}, dir).code).to.equal(0);
    const ok = rdx(['validate', 'rdx.config.yaml'], {}, dir);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.stdout).to.include('ok: rdx.config.yaml is a target profile').and.include('rdx run --config rdx.config.yaml');
    // The run's variables are set where it runs: here they are a note, not an error.
    if (process.env['RDX_CLIENT_SECRET'] === undefined) expect(ok.stdout).to.include('note: RDX_CLIENT_SECRET is not set here');
    expect(ok.stdout).to.not.include('case(s)');
    // A profile by another name is recognised by its keys.
    const other = join(dir, 'staging.yaml');
    writeFileSync(other, 'baseUrl: http://127.0.0.1:1\ncredentials:\n  clientId: x\n  clientSecrt: y\n');
    const bad = rdx(['validate', other], {}, dir);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include(`${other}:4: credentials.clientSecrt: unknown field clientSecrt: did you mean \`clientSecret\`?`);
    expect(bad.stderr).to.not.match(/\/cases|case\(s\)/);
  });

  it('rdx run draws its live progress line on stderr only with --progress off a terminal, and never on stdout', () => {
    const ERASE = '\r\u001b[2K';
    const live = /\d+\/8 cases · \d+ failed · \d+:\d\d elapsed/;
    const run = (...flags: string[]) => rdx(['run', '--grep', '^token\\.', '--no-reports', '--allow-incomplete', ...flags]);
    // Spawned with pipes, the child has no terminal: without a flag, as with --no-progress, the output is as before.
    for (const r of [run(), run('--no-progress'), run('--progress', '--no-progress')]) {
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.include('auth/token');
      expect(r.stdout + r.stderr).to.not.include(ERASE).and.not.match(live);
    }
    const json = run('--progress', '-R', 'json');
    for (const r of [run('--progress'), json]) {
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.include(ERASE).and.match(live);
      expect(r.stdout).to.not.include(ERASE).and.not.match(live);
      // Erased when the run ended: nothing of it stays on the last line.
      expect(r.stderr.split(ERASE).pop()).to.not.match(live);
    }
    // A document reporter's stdout is still the document alone.
    expect(JSON.parse(json.stdout)).to.have.property('stats');
  });
});

describe('target profile', () => {
  const write = (text: string): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'rdx-profile-')), 'rdx.config.yaml');
    writeFileSync(file, text);
    return file;
  };

  it('applies flags over env over file', () => {
    const file = write('baseUrl: http://file.example\ncredentials:\n  clientId: from-file\nhttp:\n  timeoutMs: 1234\n');
    const env = { RDX_BASE_URL: 'http://env.example' };
    const p = loadProfile({ config: file, clientId: 'from-flag' }, env);
    expect(p.baseUrl).to.equal('http://env.example');
    expect(p.clientId).to.equal('from-flag');
    expect(p.http.timeoutMs).to.equal(1234);
    expect(loadProfile({ config: file, baseUrl: 'http://flag.example' }, env).baseUrl).to.equal('http://flag.example');
  });

  it('says which line holds an unknown field or an unknown declared key: the key\'s own line, apart from the file path', () => {
    const file = write('baseUrl: http://x\ncolour:\n  shade: red\ndeclared:\n  pageSze: 10\n');
    let message = '';
    try {
      readConfigFile(file, {});
    } catch (error) {
      expect(error).to.be.instanceOf(UsageError);
      message = (error as Error).message;
    }
    // The key's line (2), not its value's below it (3).
    expect(message).to.include(`${file}:2: colour: unknown field colour`);
    expect(message).to.include(`${file}:5: declared.pageSze: unknown key pageSze`);
    expect(message).to.not.include(`${file}.`);
  });

  it('names a missing environment variable', () => {
    const file = write('baseUrl: http://x\ncredentials:\n  clientSecret: ${env:RDX_NOPE_SECRET}\nfixtures:\n  atsJobOfferIds: ["1", "${env:RDX_NOPE_ID}"]\n');
    expect(() => readConfigFile(file, {})).to.throw(UsageError, `${file}:3: credentials.clientSecret: environment variable RDX_NOPE_SECRET is not set`);
    expect(() => readConfigFile(file, {})).to.throw(UsageError, `${file}:5: fixtures.atsJobOfferIds[1]: environment variable RDX_NOPE_ID is not set`);
  });

  it('reads atsJobOfferIdSource as idSources.atsJobOffer, and refuses both at once at the older key\'s line', () => {
    const old = write('atsJobOfferIdSource:\n  file: /tmp/ids.jsonl\n');
    expect(idSourcesOf(loadProfile({ config: old }, {}))).to.deep.equal({ 'job-offer': { file: '/tmp/ids.jsonl' } });
    const both = write('idSources:\n  atsJobOffer:\n    file: /tmp/a.jsonl\natsJobOfferIdSource:\n  file: /tmp/b.jsonl\n');
    expect(() => readConfigFile(both, {})).to.throw(UsageError, `${both}:4: atsJobOfferIdSource: give the ATS job offers' id source once`);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => loadProfile({ baseUrl: 'ftp://x' }, {}, tmpdir())).to.throw(UsageError, /not an http\(s\) URL/);
  });
});
