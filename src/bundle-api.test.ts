// The bundle functions of the programmatic API as a consumer uses them: a run, a key pair, a signed bundle, and its
// check with the verdict and the exit code rdx verify gives for the same bundle and anchors (the same code: one home).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EXIT, UsageError, createBundle, generateKeyPair, runConformance, verifyBundle, writeKeyPair,
  type BundleVerification, type RunReport,
} from './index.js';
import { packageRoot } from './spec/index.js';

const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');
const rdxVerify = (args: string[]): number | null => spawnSync(process.execPath, [cli, 'verify', ...args], { encoding: 'utf8', timeout: 30_000 }).status;

describe('the bundle API: createBundle, generateKeyPair, writeKeyPair, verifyBundle', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'rdx-bundle-api-'));
  let report: RunReport;

  before(async () => {
    ({ report } = await runConformance({ env: {}, cwd: dir, filters: { grep: '^token\\.' } }));
  });

  it('signs with a written key pair; the check says signed, exit 0, and integrity only (5) without the key, as rdx verify', () => {
    const keys = writeKeyPair(join(dir, 'k.pem'));
    expect(statSync(keys.privateKeyFile).mode & 0o777).to.equal(0o600);
    const written = createBundle(report, join(dir, 'signed'), { signKey: readFileSync(keys.privateKeyFile, 'utf8') });
    expect(written.signer?.fingerprint).to.equal(keys.fingerprint);
    const signed: BundleVerification = verifyBundle(written.file, { publicKey: readFileSync(keys.publicKeyFile, 'utf8') });
    expect([signed.status, signed.status === 'ok' && signed.trust, signed.exitCode]).to.deep.equal(['ok', 'signed', EXIT.OK]);
    expect(signed.status === 'ok' && signed.manifest.run.verdict).to.equal(report.summary.verdict);
    expect(rdxVerify([written.file, '--public-key', keys.publicKeyFile])).to.equal(signed.exitCode);
    const bare = verifyBundle(written.file);
    expect([bare.status === 'ok' && bare.trust, bare.exitCode]).to.deep.equal(['integrity', EXIT.INTEGRITY_ONLY]);
    expect(rdxVerify([written.file])).to.equal(bare.exitCode);
    const pinned = verifyBundle(written.file, { manifestSha256: written.manifestSha256 });
    expect([pinned.status === 'ok' && pinned.trust, pinned.exitCode]).to.deep.equal(['pinned', EXIT.OK]);
  });

  it('another key, a wrong pin or a malformed file: the problems and the exit code rdx verify gives', () => {
    const written = createBundle(report, join(dir, 'signed-in-memory'), { signKey: generateKeyPair().privateKey });
    const other = generateKeyPair();
    const wrongKey = verifyBundle(written.file, { publicKey: other.publicKey });
    expect(wrongKey.status).to.equal('mismatch');
    expect(wrongKey.status === 'mismatch' && wrongKey.problems.join('\n')).to.include(other.fingerprint);
    expect(wrongKey.exitCode).to.equal(EXIT.MUST_FAILED);
    const publicKeyFile = join(dir, 'other.pub');
    writeFileSync(publicKeyFile, other.publicKey);
    expect(rdxVerify([written.file, '--public-key', publicKeyFile])).to.equal(wrongKey.exitCode);
    expect(verifyBundle(written.file, { manifestSha256: '0'.repeat(64) }).exitCode).to.equal(EXIT.MUST_FAILED);
    const junk = join(dir, 'junk.tar.gz');
    writeFileSync(junk, 'not a bundle');
    const malformed = verifyBundle(junk);
    expect([malformed.status, malformed.exitCode]).to.deep.equal(['malformed', EXIT.USAGE]);
    expect(rdxVerify([junk])).to.equal(malformed.exitCode);
  });

  it('bad input is a UsageError naming the option, never quoting a key', () => {
    const { privateKey } = generateKeyPair();
    const refused = (f: () => unknown): UsageError => {
      try {
        f();
      } catch (error) {
        expect(error).to.be.instanceOf(UsageError);
        return error as UsageError;
      }
      throw new Error('expected a UsageError');
    };
    const asPublic = refused(() => verifyBundle(join(dir, 'signed', 'bundle.tar.gz'), { publicKey: privateKey }));
    expect([asPublic.code, asPublic.message]).to.deep.equal(['RDX_ERR_KEY', 'options.publicKey: a private key; give the public key (the .pub file of rdx keygen), and keep the private one secret']);
    expect(refused(() => createBundle(report, dir, { signKey: 'nonsense' })).message).to.match(/^options\.signKey: not a private key/);
    expect(refused(() => verifyBundle(join(dir, 'missing.tar.gz'))).code).to.equal('RDX_ERR_BUNDLE');
    expect(refused(() => verifyBundle(join(dir, 'x'), { publicKey: 42 as unknown as string })).code).to.equal('RDX_ERR_OPTIONS');
    expect(refused(() => writeKeyPair(join(dir, 'k.pem'))).code, 'an existing key is never replaced without force').to.equal('RDX_ERR_WRITE');
  });
});
