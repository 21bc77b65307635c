import { embeddedSimulator } from '../cli/compose.js';
import { expect } from 'chai';
import { defaults } from '../config/profile.js';
import { runConformance } from '../engine/run.js';
import type { CaseResult } from '../core/results.js';
import { personaByName } from '../../simulator/personas/index.js';
import { ConsoleReporter, failureLine, oneLine } from './console.js';

/** Runs fn with process.stdout.write captured (the outer mocha's own output is held back meanwhile). */
async function capture(fn: () => Promise<unknown>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let text = '';
  process.stdout.write = ((chunk: string | Uint8Array) => { text += chunk.toString(); return true; }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  return text;
}

describe('the rdx console reporter', function () {
  this.timeout(60_000);

  it('puts a target\'s text on one line with its control characters escaped', () => {
    expect(oneLine('a\u001b[2J\nb\u009bc')).to.equal('a\\x1b[2J b\\x9bc');
    expect(oneLine('x'.repeat(500))).to.have.length(220);
    const failing: CaseResult = {
      id: 'x.case', title: 't', level: 'MUST', clauses: ['ENVELOPE.MESSAGE'], endpoints: [4], tags: [], tier: 'read-only', file: 'f', verdict: 'fail',
      assertions: [
        { clause: 'ENVELOPE.DATA', level: 'SHOULD', passed: false, message: 'meh', check: 'c' },
        { clause: 'ENVELOPE.MESSAGE', level: 'MUST', passed: false, message: 'status 404:\u0007 message is missing', check: 'c' },
      ],
      observations: [], exchanges: [], durationMs: 1,
    };
    expect(failureLine(failing)).to.equal('FAIL  [MUST] x.case  ENVELOPE.MESSAGE (+1 more)  status 404:\\x07 message is missing');
  });

  for (const debug of [false, true]) {
    it(`prints one line per failing case (case, clause, finding) and ${debug ? 'the stack under --debug' : 'no stack'}`, async () => {
      let failures = 0;
      const out = await capture(async () => {
        const { report } = await runConformance({
          profile: defaults(), reporter: ConsoleReporter, debug,
          filters: { grep: '^envelope\\.list\\.|^token\\.issued ' }, simulator: embeddedSimulator({ personas: [personaByName('missing-message')!] }),
        });
        failures = report.cases.filter((c) => c.verdict === 'fail').length;
      });
      expect(failures).to.be.greaterThan(0);
      const lines = out.split('\n').filter((l) => /^\s+FAIL /.test(l));
      expect(lines).to.have.length(failures);
      for (const line of lines) expect(line).to.match(/^ {4}FAIL {2}\[MUST\] envelope\.list\.\S+ {2}ENVELOPE\.MESSAGE {2}status \d+: message is missing$/);
      expect(out).to.match(/^ {2}envelope\/envelope +\d+ fail$/m);
      if (debug) expect(out).to.match(/\n\s+at /);
      else expect(out).to.not.match(/\n\s+at |Context\.<anonymous>/);
    });
  }
});
