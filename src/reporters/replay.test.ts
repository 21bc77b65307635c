// The curl script report.html offers (built in the page from replay.ts): a header, then each exchange in order, and
// no heading that could end its comment and start a command.
import { expect } from 'chai';
import { replayScript } from './replay.js';

describe('the replay script of report.html', () => {
  it('lists the exchanges in order, each a comment and its curl line, after a header saying what to set', () => {
    const script = replayScript('explore.application-steps', [
      { head: 'Exchange #1 · step “create”', curl: "curl -sS -i -X POST 'http://127.0.0.1:1/ats/application-steps'" },
      { head: 'Exchange #2 · step “read”', curl: "curl -sS -i 'http://127.0.0.1:1/ats/application-steps/1'" },
    ]);
    const lines = script.split('\n');
    expect(lines[0]).to.equal('#!/usr/bin/env bash');
    expect(script).to.include('# Replays 2 exchange(s) of explore.application-steps').and.include('RDX_ACCESS_TOKEN');
    expect(lines.indexOf("curl -sS -i -X POST 'http://127.0.0.1:1/ats/application-steps'")).to.be.lessThan(lines.indexOf("curl -sS -i 'http://127.0.0.1:1/ats/application-steps/1'"));
  });

  it('keeps a heading with line breaks or controls on its comment line', () => {
    const script = replayScript('case\nrm -rf /', [{ head: 'step\r\nrm -rf ~\u2028x', curl: 'curl -sS' }]);
    const commands = script.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(commands).to.deep.equal(['set -u', 'curl -sS']);
  });
});
