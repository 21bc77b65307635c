// --image without testcontainers installed: a usage error that says what to install, not a stack trace.
import { expect } from 'chai';
import { INSTALL_TESTCONTAINERS, loadContainer, missingPackage } from './load.js';
import { UsageError } from '../errors.js';

const notFound = (name: string): Error => Object.assign(new Error(`Cannot find package '${name}' imported from /x/dist/src/container/index.js`), { code: 'ERR_MODULE_NOT_FOUND' });

describe('loading the container module (testcontainers, loaded only for --image)', () => {
  it('says to install testcontainers when it is missing', async () => {
    const error = await loadContainer(() => Promise.reject(notFound('testcontainers'))).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(UsageError);
    expect((error as Error).message).to.equal(INSTALL_TESTCONTAINERS).and.match(/^install testcontainers to use --image: npm i testcontainers/);
  });

  it('passes on any other failure as it is', async () => {
    const other = notFound('ssh2');
    expect(await loadContainer(() => Promise.reject(other)).catch((e: unknown) => e)).to.equal(other);
    expect(missingPackage(new Error("Cannot find package 'testcontainers'"), 'testcontainers')).to.equal(false);
  });

  it('loads the module where testcontainers is installed (here, as every install has it)', async () => {
    expect(typeof (await loadContainer()).withContainer).to.equal('function');
  });
});
