import { expect } from 'chai';
import type { RunProgress } from '../core/progress.js';
import { ERASE, ESTIMATE_AFTER, ProgressLine, clock, progressLineFor, progressText, progressWanted, suiteName, withProgressLine, type LineStream } from './progress.js';

/** A terminal stream that keeps what is written to it. */
class FakeTerminal implements LineStream {
  chunks: string[] = [];
  constructor(public isTTY = true, public columns = 200) {}
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(chunk.toString());
    return true;
  }
  get text(): string { return this.chunks.join(''); }
  /** What the terminal shows on its last line: what follows the last line feed, after the last erase. */
  get live(): string {
    const last = this.text.split('\n').pop() ?? '';
    return last.split(ERASE).pop() ?? '';
  }
}

const bearer = { id: 'token.bearer.case', file: 'suites/auth/bearer.yaml' };
const list = { id: 'jobs.list.case', file: 'suites/job-offers/list.yaml' };

/** A line on a fake terminal with a fake clock, started on total cases; stop() ends it. */
function started(total: number, options: { columns?: number; waited?: number; out?: FakeTerminal } = {}) {
  const err = new FakeTerminal(true, options.columns ?? 200);
  const out = options.out ?? new FakeTerminal(true);
  let now = 1_000_000;
  const line = new ProgressLine({ stream: err, guard: [out, err], now: () => now });
  line.start({ total, concurrency: 4, waitedMs: () => options.waited ?? 0 });
  return { line, err, out, advance: (ms: number) => { now += ms; } };
}

describe('the live progress line', function () {
  const lines: ProgressLine[] = [];
  afterEach(() => { for (const l of lines.splice(0)) l.end(); });
  const track = <T extends { line: ProgressLine }>(x: T): T => { lines.push(x.line); return x; };

  it('shows cases done of the total, failures so far, the suites in flight and the time elapsed', () => {
    const { line, err, advance } = track(started(460));
    expect(err.live).to.equal('0/460 cases · 0 failed · 0:00 elapsed');
    line.caseStarted(bearer);
    line.caseStarted(list);
    line.caseStarted({ ...bearer, id: 'token.other' });
    line.caseFinished(bearer, 'fail');
    line.caseFinished({ ...bearer, id: 'token.other' }, 'error');
    line.caseStarted({ ...bearer, id: 'token.third' });
    advance(12_000);
    line.tick();
    // fail and error count as failures; auth/bearer was done and is in flight again (token.third), after the list.
    expect(err.live).to.equal('2/460 cases · 2 failed · 0:12 elapsed · job-offers/list, auth/bearer');
    line.caseFinished(list, 'warn');
    line.tick();
    expect(err.live).to.equal('3/460 cases · 2 failed · 0:12 elapsed · auth/bearer');
  });

  it('estimates the time left from the rate so far, only once a few cases are done', () => {
    const { line, err, advance } = track(started(100));
    for (let i = 0; i < ESTIMATE_AFTER - 1; i++) line.caseFinished({ ...bearer, id: `c${i}` }, 'pass');
    advance(8_000);
    line.tick();
    expect(err.live).to.not.include('left');
    line.caseFinished({ ...bearer, id: 'last' }, 'pass');
    advance(2_000);
    line.tick();
    // 5 cases in 10 s: 95 left at 2 s each.
    expect(err.live).to.equal(`5/100 cases · 0 failed · 0:10 elapsed, ~${clock(190_000)} left`);
    expect(clock(190_000)).to.equal('3:10');
  });

  it('says how long the run waited on the rate limit, only when it did', () => {
    expect(track(started(10, { waited: 0 })).err.live).to.not.include('rate limit');
    expect(track(started(10, { waited: 65_000 })).err.live).to.include('rate-limit waits 1:05');
  });

  it('never wraps: the line is cut to the terminal width, the suites in flight first', () => {
    const { line, err } = track(started(460, { columns: 60 }));
    for (const f of ['a', 'b', 'c', 'd', 'e', 'f']) line.caseStarted({ id: f, file: `suites/${f}/suite-${f}.yaml` });
    line.tick();
    expect(err.live.length).to.be.at.most(59);
    expect(err.live).to.match(/^0\/460 cases · 0 failed · 0:00 elapsed · a\/suite-a(, b\/suite-b)* \+\d$/);
    const narrow = progressText({ done: 1, total: 460, failed: 0, elapsedMs: 0, waitedMs: 0, inFlight: ['auth/bearer'] }, 20);
    expect(narrow).to.have.length(19);
    expect(narrow.endsWith('…')).to.equal(true);
  });

  it('erases itself before other output, which stays whole, and comes back after it', () => {
    const { err, out } = track(started(10));
    const before = err.chunks.length;
    out.write('auth/bearer: 81 passed\n');
    expect(err.chunks[before]).to.equal(ERASE);
    expect(out.chunks).to.deep.equal(['auth/bearer: 81 passed\n']);
    expect(err.live).to.equal('0/10 cases · 0 failed · 0:00 elapsed');
    // Output on the line's own stream (a warning) erases it too, and is written as it came.
    err.write('Warning: something\n');
    expect(err.text).to.include(`${ERASE}Warning: something\n${ERASE}0/10`);
  });

  it('waits for a line left open by other output instead of drawing over it', () => {
    const { line, err, out } = track(started(10));
    out.write('..');
    line.caseFinished(bearer, 'pass');
    line.tick();
    expect(err.live).to.equal('');
    out.write('.\n');
    line.tick();
    expect(err.live).to.equal('1/10 cases · 0 failed · 0:00 elapsed');
  });

  it('leaves no live line once ended, puts the writes back, and writes nothing more', () => {
    const out = new FakeTerminal(true);
    const own = out.write;
    const { line, err } = started(10, { out });
    expect(out.write).to.not.equal(own);
    expect(err.write).to.not.equal(FakeTerminal.prototype.write);
    line.end();
    expect(err.live).to.equal('');
    expect(out.write).to.equal(own);
    // A write that came from the prototype (as process.stderr's does) is the prototype's again, not a copy.
    expect(Object.prototype.hasOwnProperty.call(err, 'write')).to.equal(false);
    const written = err.chunks.length;
    line.caseFinished(bearer, 'pass');
    line.tick();
    line.end();
    out.write('after\n');
    expect(err.chunks).to.have.length(written);
  });

  it('does not take back a write someone replaced after it (they put theirs back)', () => {
    const out = new FakeTerminal(true);
    const { line } = started(10, { out });
    const ours = out.write;
    const theirs = (chunk: string | Uint8Array): boolean => ours.call(out, chunk);
    out.write = theirs;
    line.end();
    expect(out.write).to.equal(theirs);
  });

  it('leaves output off the terminal alone: a redirected stdout is not watched', () => {
    const file = new FakeTerminal(false);
    const own = file.write;
    const { err } = track(started(10, { out: file }));
    expect(file.write).to.equal(own);
    const before = err.chunks.length;
    file.write('{"json": true}\n');
    expect(err.chunks).to.have.length(before);
  });

  it('escapes control characters in what it shows, though the file names are ours', () => {
    expect(suiteName('suites/auth/\u001b]0;owned\u0007bearer.yaml')).to.equal('auth/\\x1b]0;owned\\x07bearer');
    const { line, err } = track(started(10));
    line.caseStarted({ id: 'x\u001b[2Jy', file: 'suites/x\u001b[2J.yaml' });
    line.tick();
    expect(err.live).to.include('x\\x1b[2J');
    expect(err.text.replaceAll(ERASE, '')).to.not.include('\u001b');
  });

  it('ends the line of a run that throws: no live line, the writes put back', async () => {
    const err = new FakeTerminal(true);
    const out = new FakeTerminal(true);
    const own = out.write;
    let given: RunProgress | undefined;
    const run = async (o: { progress?: RunProgress }): Promise<never> => {
      given = o.progress;
      o.progress?.start({ total: 3, concurrency: 1, waitedMs: () => 0 });
      throw new Error('the target went away');
    };
    let thrown: unknown;
    await withProgressLine(true, run, {}, { stream: err, guard: [out, err] }).catch((e: unknown) => { thrown = e; });
    expect((thrown as Error).message).to.equal('the target went away');
    expect(given).to.be.instanceOf(ProgressLine);
    expect(err.text).to.include('0/3 cases');
    expect(err.live).to.equal('');
    expect(out.write).to.equal(own);
    // --no-progress: the run is given no line at all.
    given = undefined;
    await withProgressLine(false, run, {}, { stream: err, guard: [out, err] }).catch(() => undefined);
    expect(given).to.equal(undefined);
  });

  it('is redrawn by its timer when something changed', async () => {
    const { line, err } = track(started(10));
    line.caseFinished(bearer, 'pass');
    for (let i = 0; i < 100 && !err.live.startsWith('1/10'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(err.live).to.equal('1/10 cases · 0 failed · 0:00 elapsed');
    const drawn = err.chunks.length;
    line.tick();
    expect(err.chunks, 'nothing changed: nothing written').to.have.length(drawn);
  });

  it('is on by default on a terminal outside CI; --progress and --no-progress decide otherwise', () => {
    expect(progressWanted(undefined, { isTTY: true }, {})).to.equal(true);
    expect(progressWanted(undefined, { isTTY: true }, { CI: 'true' })).to.equal(false);
    expect(progressWanted(undefined, { isTTY: true }, { CI: 'false' })).to.equal(true);
    expect(progressWanted(undefined, { isTTY: false }, {})).to.equal(false);
    expect(progressWanted(undefined, {}, {})).to.equal(false);
    expect(progressWanted(true, { isTTY: false }, { CI: '1' })).to.equal(true);
    expect(progressWanted(false, { isTTY: true }, {})).to.equal(false);
    expect(progressLineFor(false, { stream: new FakeTerminal(true) })).to.equal(undefined);
    expect(progressLineFor(true, { stream: new FakeTerminal(false) })).to.be.instanceOf(ProgressLine);
  });
});
