// Thousands of bad requests, generated from spec/ with a fixed seed (test/fuzz/generate.ts), sent over raw
// sockets to a simulator on loopback. Every one must be refused with a 4xx in the spec's error envelope as
// application/json, within a per-request time limit, and none may change the store.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { SCHEMA_BASE, schemaErrors } from '../src/spec/index.js';
import { startSimulator, type Simulator } from './index.js';
import { generator, type FuzzCase, type FuzzTarget } from '../test/fuzz/generate.js';
import { rawExchange, type RawOutcome, type RawResponse } from '../test/fuzz/raw.js';
import { Client, internalsOf } from '../test/support/simulator.js';

const SEED = 20_261;
const REQUESTS = 3_000;
const CONCURRENCY = 8;
/** Long enough for a loaded machine (a stalled answer, not a slow one, is the finding), short of the test's limit. */
const PER_REQUEST_MS = 15_000;
/**
 * The whole run stops issuing requests after this, so a slow or loaded machine finishes within mocha's limit; what
 * was sent is judged (how many were sent is printed, not asserted: speed is the bench's business).
 */
const BUDGET_MS = 45_000;
const ERROR_ENVELOPE = `${SCHEMA_BASE}envelope.json#/$defs/error`;

/** Everything the store holds, as one digest: equal digests, same data. */
function snapshot(sim: Simulator): string {
  const { store } = internalsOf(sim);
  const hash = createHash('sha256');
  for (const table of [store.jobOffers, store.applicationSteps, store.jobboardActivities, store.jobboardJobOffers]) {
    for (const record of table.values()) hash.update(JSON.stringify(record)).update('\n');
    hash.update('--\n');
  }
  for (const user of store.users) hash.update(JSON.stringify(user)).update('\n');
  return hash.digest('hex');
}

/**
 * The cases in turns, one of each family a turn (in the generator's order within a family), so that whatever the
 * time budget lets go out covers every family from the first few dozen requests, however loaded the machine.
 */
function byFamilyTurns(cases: FuzzCase[]): FuzzCase[] {
  const families = new Map<string, FuzzCase[]>();
  for (const c of cases) families.set(c.family, [...(families.get(c.family) ?? []), c]);
  const queues = [...families.values()];
  const out: FuzzCase[] = [];
  for (let turn = 0; out.length < cases.length; turn++) for (const q of queues) if (q[turn]) out.push(q[turn] as FuzzCase);
  return out;
}

/** What is wrong with an answer to a bad request; empty when it is a proper refusal. */
function refusalProblems(outcome: RawOutcome, allowed: readonly number[]): string[] {
  if (outcome.kind !== 'response') return [`no answer: ${outcome.kind} (${outcome.detail}) after ${outcome.elapsedMs} ms; got ${JSON.stringify(outcome.partial.slice(0, 120))}`];
  const res: RawResponse = outcome.response;
  const problems: string[] = [];
  if (res.status < 400 || res.status > 499) problems.push(`status ${res.status} is not a 4xx`);
  else if (!allowed.includes(res.status)) problems.push(`status ${res.status}, expected ${allowed.join(' or ')}`);
  const type = res.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) problems.push(`content-type ${JSON.stringify(type)}`);
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    problems.push(`body is not JSON: ${JSON.stringify(res.body.subarray(0, 80).toString('latin1'))}`);
    return problems;
  }
  const envelope = schemaErrors(ERROR_ENVELOPE, body);
  if (envelope.length > 0) problems.push(`not the error envelope: ${envelope.slice(0, 3).join('; ')}`);
  else if ((body as { errors: unknown[] }).errors.length === 0) problems.push('errors is empty');
  return problems;
}

describe('simulator fuzzing: generated bad requests', function () {
  // The budget, then the answers under way (each within PER_REQUEST_MS), with room to spare.
  this.timeout(BUDGET_MS + PER_REQUEST_MS + 30_000);
  let sim: Simulator;
  let target: FuzzTarget;
  const diagnostics: string[] = [];
  const writeStderr = process.stderr.write.bind(process.stderr);

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, seed: 3, records: 300 });
    const client = new Client(sim.baseUrl);
    const token = await client.login(sim.options.clientId, sim.options.clientSecret);
    await client.close();
    const offers = internalsOf(sim).store.jobOffers.values();
    const withAttribute = offers.find((o) => (o.attributes ?? []).length > 0);
    if (!withAttribute?.attributes?.[0]) throw new Error('fuzz: the seed data has no job offer with an attribute');
    target = {
      host: '127.0.0.1',
      port: Number(new URL(sim.baseUrl).port),
      clientId: sim.options.clientId,
      clientSecret: sim.options.clientSecret,
      token,
      expiredToken: sim.expiredToken(),
      maxBodyBytes: sim.options.maxBodyBytes,
      jobOfferReferences: [withAttribute.reference, ...offers.filter((o) => o !== withAttribute).map((o) => o.reference)],
      attributeName: withAttribute.attributes[0].name,
      ids: {
        applicationSteps: internalsOf(sim).store.applicationSteps.values().map((r) => r.id),
        jobboardActivities: internalsOf(sim).store.jobboardActivities.values().map((r) => r.id),
        jobboardJobOffers: internalsOf(sim).store.jobboardJobOffers.values().map((r) => r.id),
      },
      userMails: internalsOf(sim).store.users.map((u) => u.mail),
    };
    // The simulator reports its own failures (a 500's cause) on stderr: any line there is a finding.
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      diagnostics.push(String(chunk));
      return (writeStderr as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
  });

  after(async () => {
    process.stderr.write = writeStderr;
    await sim?.close();
  });

  it(`refuses up to ${REQUESTS} generated bad requests (as many as ${BUDGET_MS / 1000} s allow) with a 4xx JSON error envelope, writing nothing`, async () => {
    const before = { digest: snapshot(sim), counts: internalsOf(sim).store.counts() };
    const gen = generator(SEED, target);
    const cases = byFamilyTurns(Array.from({ length: REQUESTS }, () => gen.next()));
    const drawn = new Set(cases.map((c) => c.family));
    const statuses = new Map<number, number>();
    const families = new Map<string, number>();
    const failures: string[] = [];
    const started = performance.now();
    let nextIndex = 0;
    let sent = 0;
    let slowest = 0;
    const worker = async (): Promise<void> => {
      while (nextIndex < cases.length && performance.now() - started < BUDGET_MS) {
        const c = cases[nextIndex++] as FuzzCase;
        const outcome = await rawExchange(c.request, { host: target.host, port: target.port, timeoutMs: PER_REQUEST_MS });
        sent += 1;
        slowest = Math.max(slowest, outcome.elapsedMs);
        families.set(c.family, (families.get(c.family) ?? 0) + 1);
        if (outcome.kind === 'response') statuses.set(outcome.response.status, (statuses.get(outcome.response.status) ?? 0) + 1);
        const problems = refusalProblems(outcome, c.expect);
        if (problems.length > 0) failures.push(`[${c.family}] ${c.label}: ${problems.join('; ')}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    const after = { digest: snapshot(sim), counts: internalsOf(sim).store.counts() };

    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    const byFamily = [...families].sort(([a], [b]) => a.localeCompare(b)).map(([f, n]) => `${f} ${n}`).join(', ');
    process.stdout.write(`      fuzz: ${sent} requests in ${seconds.toFixed(1)} s (seed ${SEED}, slowest ${Math.round(slowest)} ms), `
      + `${statuses.size} distinct statuses: ${byStatus}; families: ${byFamily}; ${failures.length} failures; store ${after.digest === before.digest ? 'unchanged' : 'CHANGED'}\n`);

    expect(failures, failures.slice(0, 15).join('\n')).to.deep.equal([]);
    expect(after.counts).to.deep.equal(before.counts);
    expect(after.digest, 'the store changed').to.equal(before.digest);
    expect(diagnostics.filter((line) => line.includes('rdx simulator')), 'the simulator logged a failure').to.deep.equal([]);
    // Every family was drawn (the generator's seeded output, whatever the machine), so a change to the generator that
    // silences one shows here; and every one was sent: the first turn of the cases holds one of each.
    expect([...drawn], 'families drawn').to.have.length.of.at.least(14);
    expect([...families.keys()].sort(), 'families sent').to.deep.equal([...drawn].sort());
  });

  it('still answers a good request after all of that', async () => {
    const client = new Client(sim.baseUrl);
    client.token = target.token;
    try {
      const res = await client.get(`/ats/job-offers/${encodeURIComponent(target.jobOfferReferences[0] ?? '')}`);
      expect(res.status).to.equal(200);
    } finally {
      await client.close();
    }
  });

  it('generates the same requests for the same seed', () => {
    const a = generator(7, target);
    const b = generator(7, target);
    for (let i = 0; i < 200; i++) {
      const x = a.next();
      const y = b.next();
      const bytes = (r: typeof x.request): Buffer => Buffer.concat([r.head, r.body ?? Buffer.alloc(0)]);
      expect(bytes(x.request).equals(bytes(y.request))).to.equal(true);
    }
  });
});

describe('simulator: regressions found by fuzzing', () => {
  let sim: Simulator;
  let port: number;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, records: 20 });
    port = Number(new URL(sim.baseUrl).port);
  });
  after(() => sim.close());

  const send = (text: string): Promise<RawOutcome> => rawExchange({ head: Buffer.from(text.replace("host: x", `host: 127.0.0.1:${port}`), "latin1") }, { host: "127.0.0.1", port, timeoutMs: 3_000 });

  it('answers an unsupported Expect header with a JSON 417, not an empty body', async () => {
    const outcome = await send('GET /ats/job-offers HTTP/1.1\r\nhost: x\r\nexpect: teapot\r\nconnection: close\r\n\r\n');
    expect(refusalProblems(outcome, [417])).to.deep.equal([]);
  });

  it('answers CONNECT with a JSON 405 instead of dropping the connection', async () => {
    const outcome = await send(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: x\r\n\r\n`);
    expect(refusalProblems(outcome, [405])).to.deep.equal([]);
  });

  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`answers 404 for the admin name ${name}, which Object.prototype must not supply`, async () => {
      const outcome = await send(`GET /__admin/${name} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
      expect(refusalProblems(outcome, [404])).to.deep.equal([]);
      expect(outcome.kind === 'response' ? outcome.response.headers['allow'] : 'no answer').to.equal(undefined);
    });
  }
});
