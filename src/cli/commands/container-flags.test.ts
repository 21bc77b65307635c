import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { packageRoot } from '../../spec/index.js';
import { describeWaitFor } from '../../container/options.js';
import { containerTargetFrom, envEntries, parseWaitFor } from './container-flags.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(UsageError);
    return error as UsageError;
  }
  expect.fail('expected a UsageError');
}

describe('rdx run --image options', () => {
  it('gives no container without --image, and refuses container flags or a command without it', () => {
    expect(containerTargetFrom({ _: ['run'] }, ['run'])).to.equal(undefined);
    expect(usageError(() => containerTargetFrom({ _: ['run'], env: 'A=1', waitFor: 'port' }, ['run'])).message)
      .to.equal('--env, --wait-for only apply with --image');
    expect(usageError(() => containerTargetFrom({ _: ['run', 'x'] }, ['run', '--', 'x'])).message).to.match(/after -- only applies with --image/);
  });

  it('applies the documented defaults', () => {
    expect(containerTargetFrom({ _: ['run'], image: 'impl:1' }, ['run', '--image', 'impl:1'])).to.deep.equal({
      image: 'impl:1', containerPort: 8080, env: {}, waitFor: { kind: 'port' }, startupTimeoutMs: 60_000, basePath: '',
    });
  });

  it('reads every option, and the command after -- from the raw arguments (yargs would turn "1.0" into 1)', () => {
    const raw = ['run', '--image', 'impl', '--', 'node', 'server.js', '--version', '1.0'];
    const t = containerTargetFrom({
      _: ['run', 'node', 'server.js', '--version', 1], image: 'impl', containerPort: 9000, env: ['A=1', 'B=x=y', 'C='],
      waitFor: 'http:/health', startupTimeout: 1500, network: 'host', basePath: '/api/v1/',
    }, raw);
    expect(t).to.deep.equal({
      image: 'impl', containerPort: 9000, env: { A: '1', B: 'x=y', C: '' }, waitFor: { kind: 'http', path: '/health' },
      startupTimeoutMs: 1500, network: 'host', basePath: '/api/v1', command: ['node', 'server.js', '--version', '1.0'],
    });
  });

  it('refuses bad values with a message naming the flag and the value', () => {
    const base = { _: ['run'], image: 'impl' };
    expect(usageError(() => containerTargetFrom({ ...base, containerPort: 70000 }, [])).message).to.include('--container-port must be a port number 1..65535 (got 70000)');
    expect(usageError(() => containerTargetFrom({ ...base, startupTimeout: -1 }, [])).message).to.include('--startup-timeout');
    expect(usageError(() => containerTargetFrom({ ...base, baseUrl: 'http://127.0.0.1:1' }, [])).message).to.include('exclude each other');
    expect(usageError(() => containerTargetFrom({ ...base, image: '' }, [])).message).to.include('--image ""');
    expect(usageError(() => containerTargetFrom({ ...base, network: 'a b' }, [])).message).to.include('--network "a b"');
    expect(usageError(() => containerTargetFrom({ ...base, basePath: 'api' }, [])).message).to.include('--base-path "api"');
    expect(usageError(() => containerTargetFrom({ _: ['run', 'stray'], image: 'impl' }, ['run', 'stray'])).message).to.include('unexpected argument(s): stray');
  });

  it('names a malformed --env entry by its name, never by what follows it (it may be a secret)', () => {
    expect(envEntries(['A=1', 'A=2'])).to.deep.equal({ A: '2' });
    expect(usageError(() => envEntries('DEBUG')).message).to.equal('--env DEBUG: expected KEY=VALUE (no "="), e.g. --env LOG_LEVEL=debug');
    const colon = usageError(() => envEntries('DB_PASSWORD:hunter2')).message;
    expect(colon).to.include('--env DB_PASSWORD…').and.not.include('hunter2');
    expect(usageError(() => envEntries('=value')).message).to.include('the name before "=" is empty').and.not.include('value:');
    expect(usageError(() => envEntries('1A=b')).message).to.include('"1A" is not a variable name');
  });

  it('parses --wait-for port | log:<regex> | http:<path>', () => {
    expect(parseWaitFor('port')).to.deep.equal({ kind: 'port' });
    const log = parseWaitFor('log:listening on \\S+');
    expect(log.kind === 'log' && log.pattern.test('rdx simulator listening on http://x')).to.equal(true);
    expect(parseWaitFor('http:/__admin/health')).to.deep.equal({ kind: 'http', path: '/__admin/health' });
    expect(usageError(() => parseWaitFor('tcp')).message).to.equal('--wait-for tcp: expected port, log:<regex> or http:<path>');
    expect(usageError(() => parseWaitFor('log:(')).message).to.include('not a valid regular expression');
    expect(usageError(() => parseWaitFor('log:')).message).to.include('needs a regular expression');
    expect(usageError(() => parseWaitFor('http:health')).message).to.include('starting with /');
    expect(describeWaitFor({ kind: 'port' }, 18080)).to.equal('port 18080 to accept connections (--wait-for port)');
  });

  describe('on the command line', function () {
    this.timeout(30_000);
    const rdx = (args: string[]): { code: number | null; stderr: string } => {
      const r = spawnSync(process.execPath, [cli, 'run', ...args], { cwd: packageRoot, encoding: 'utf8', timeout: 20_000 });
      return { code: r.status, stderr: r.stderr };
    };

    it('exits 2 on a bad --env, naming it, before touching any engine', () => {
      const r = rdx(['--image', 'impl', '--env', 'TOKEN:abc123secret', '--no-reports']);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.include('rdx: --env TOKEN…: expected KEY=VALUE').and.not.include('abc123secret');
      expect(r.stderr).to.not.match(/\n\s+at /);
    });

    it('exits 2 on container flags without --image', () => {
      const r = rdx(['--wait-for', 'port', '--no-reports']);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.include('--wait-for only apply with --image');
    });

    it('lists the container options in --help', () => {
      const r = spawnSync(process.execPath, [cli, 'run', '--help'], { cwd: packageRoot, encoding: 'utf8', timeout: 20_000 });
      for (const flag of ['--image', '--container-port', '--env', '--wait-for', '--startup-timeout', '--network', '--base-path']) expect(r.stdout).to.include(flag);
    });
  });
});
