import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docker, engineState, showEngineIfFailed } from './docker.js';

describe('test support: the Docker engine as a failed container test shows it', () => {
  const saved = process.env['RDX_DOCKER_STATE'];
  let dir = '';
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'rdx-engine-state-')); });
  afterEach(() => {
    if (saved === undefined) delete process.env['RDX_DOCKER_STATE'];
    else process.env['RDX_DOCKER_STATE'] = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends with the last 25 lines of the log scripts/docker-engine.sh keeps in RDX_DOCKER_STATE', () => {
    process.env['RDX_DOCKER_STATE'] = dir;
    writeFileSync(join(dir, 'dockerd.log'), Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n'));
    const state = engineState();
    expect(state).to.include(`the end of ${dir}/dockerd.log:\nline 16\n`);
    expect(state).not.to.include('line 15\n');
    expect(state.endsWith('line 40')).to.equal(true);
    expect(state).to.match(/^docker ps -a:\n/);
  });

  it('says where no such log is, instead of failing the hook that prints it', () => {
    process.env['RDX_DOCKER_STATE'] = join(dir, 'none');
    expect(engineState()).to.include(`(no ${dir}/none/dockerd.log: an engine this repository's script did not start)`);
  });

  it('is printed after a failed test only', () => {
    process.env['RDX_DOCKER_STATE'] = dir;
    writeFileSync(join(dir, 'dockerd.log'), 'the last line');
    const printed: string[] = [];
    const log = console.log;
    console.log = (line: string) => printed.push(line);
    try {
      showEngineIfFailed({ title: 'passed', state: 'passed' } as Mocha.Test);
      showEngineIfFailed(undefined);
      expect(printed).to.deep.equal([]);
      showEngineIfFailed({ title: 'broke', state: 'failed' } as Mocha.Test);
    } finally {
      console.log = log;
    }
    expect(printed).to.have.length(1);
    expect(printed[0]).to.match(/^ {4}the engine after "broke" failed:\ndocker ps -a:\n/).and.match(/the last line$/);
  });

  it('a docker command that cannot run says why in its stderr', () => {
    const r = docker(['version'], 1);
    expect(r.code).to.equal(null);
    expect(r.stderr).to.match(/\(docker version: .+, limit 1 ms\)$/);
  });
});
