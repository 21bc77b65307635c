import { embeddedSimulator } from '../compose.js';
import { expect } from 'chai';
import { defaults } from '../config/profile.js';
import { runConformance } from '../engine/run.js';
import type { CaseResult } from '../core/results.js';
import { personaByName } from '../../simulator/personas/index.js';
import { ConsoleReporter, failureGroupLines, failureLine, oneLine } from './console.js';
import { nextStepLine } from './verdict.js';
import { readBackReport } from '../../test/support/read-back.js';
import type { RunReport } from '../engine/run.js';

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

  it('gives a failing case the level of the clause that broke and the step, not the case\'s level', () => {
    const should: CaseResult = {
      id: 's.case', title: 't', level: 'SHOULD', clauses: [], endpoints: [], tags: [], tier: 'reversible', file: 'f', verdict: 'fail',
      assertions: [{ clause: 'ENVELOPE.JSON_BODY', level: 'MUST', passed: false, message: 'not JSON', check: 'c', exchange: 1 }],
      observations: [], durationMs: 1,
      exchanges: ['POST http://x/jobboard/job-offers', 'DELETE http://x/jobboard/job-offers/3'].map((line) => {
        const [method, url] = line.split(' ') as [string, string];
        return { step: 'x', request: { method, url, headers: {} }, startedAt: '2026-01-01T00:00:00Z', elapsedMs: 1 };
      }),
    };
    expect(failureLine(should)).to.equal('FAIL  [MUST] s.case  ENVELOPE.JSON_BODY  step 2 DELETE /jobboard/job-offers/{id}  not JSON');
  });

  for (const debug of [false, true]) {
    it(`groups the failures by clause and finding at the end${debug ? ', and under --debug one line per case with the stack' : ', with no stack'}`, async () => {
      let failures = 0;
      const out = await capture(async () => {
        const { report } = await runConformance({
          profile: defaults(), reporter: ConsoleReporter, debug,
          filters: { grep: '^envelope\\.list\\.|^token\\.issued ' }, simulator: embeddedSimulator({ personas: [personaByName('missing-message')!] }),
        });
        failures = report.cases.filter((c) => c.verdict === 'fail').length;
      });
      expect(failures).to.be.greaterThan(1);
      // One group for the one cause, however many cases it broke, with the step of the first ones.
      const heads = out.split('\n').filter((l) => /^ {2}(FAIL|WARN|ERROR) /.test(l));
      expect(heads).to.deep.equal([`  FAIL  [MUST] ENVELOPE.MESSAGE — ${failures} cases: status 200: message is missing`]);
      expect(out).to.match(/^Failures by clause \(1 group, \d+ cases; /m);
      expect(out).to.match(/^ {8}envelope\.list\.\S+ \(step \d+ GET \/[a-z/-]+\), /m);
      const lines = out.split('\n').filter((l) => /^\s{4}FAIL /.test(l));
      expect(lines).to.have.length(debug ? failures : 0);
      for (const line of lines) expect(line).to.match(/^ {4}FAIL {2}\[MUST\] envelope\.list\.\S+ {2}ENVELOPE\.MESSAGE {2}step \d+ GET \S+ {2}status \d+: message is missing$/);
      expect(out).to.match(/^ {2}envelope\/envelope +\d+ fail$/m);
      if (debug) expect(out).to.match(/\n\s+at /);
      else expect(out).to.not.match(/\n\s+at |Context\.<anonymous>/);
    });
  }

  describe('a fault whose read-backs break two clauses on three resources (patch-clears-unspecified)', () => {
    let report: RunReport;
    before(async () => { report = await readBackReport(); });

    it('shows it as one group, caused by a PATCH, each case naming the PATCH before the read that showed it', () => {
      const lines = failureGroupLines(report.cases);
      const heads = lines.filter((l) => /^ {2}(FAIL|WARN|ERROR) /.test(l));
      const failing = report.cases.filter((c) => c.verdict === 'fail').length;
      expect(failing).to.equal(5);
      expect(heads).to.have.length(1);
      expect(heads[0]).to.match(new RegExp(`^ {2}FAIL {2}\\[MUST\\] caused by a PATCH: WRITE\\.PATCH_PARTIAL, WRITE\\.READ_BACK — ${failing} cases: `));
      expect(lines.join('\n')).to.match(/\(step \d+ PATCH \/ats\/application-steps\/\{id\} → step \d+ GET \/ats\/application-steps\/\{id\}\)/);
    });

    it('ends with what to do next: where the evidence is and how to re-judge the clauses', () => {
      expect(nextStepLine(report.summary, report.cases, { html: 'reports/x/report.html' })).to.equal(
        'Next: fix the first failure group above (5 case(s)): reports/x/report.html#failures shows the PATCH that caused each failure first, then the read that showed it, with a curl script replaying both; after a fix, re-judge it with the same flags and --clause WRITE.PATCH_PARTIAL --clause WRITE.READ_BACK.');
      const clean = { ...report.summary, unjudgedMust: 0, knownFailures: 0 };
      expect(nextStepLine(clean, [])).to.match(/^Next: run again with --bundle --sign-key KEY/);
      expect(nextStepLine(clean, [], { bundle: 'signed' })).to.match(/^Next: publish bundle\.tar\.gz/);
      expect(nextStepLine({ ...clean, unjudgedMust: 3 }, [])).to.match(/^Next: unlock the MUST cases not judged/);
    });
  });
});
