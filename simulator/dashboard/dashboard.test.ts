import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';
import type { JournalEntry } from '../journal.js';
import { parseSnapshot } from '../snapshot.js';
import { personaByName } from '../personas/index.js';
import { Client, items, startTest, type Harness, type Reply } from '../../test/support/simulator.js';
import type { JournalSummary } from './events.js';
import type { RunView } from './runs.js';
import { conformanceRunner } from '../../src/compose.js';

/** A Server-Sent Events stream read with undici: events as they come, and a bounded wait for the next one that matches. */
class EventStream {
  readonly events: { event: string; data: Record<string, unknown> }[] = [];
  private readonly agent: Agent;
  private readonly abort = new AbortController();
  private waiters: { test: (e: EventStream['events'][number]) => boolean; resolve: (e: EventStream['events'][number]) => void }[] = [];
  status = 0;
  ended = false;
  /** Settles when the stream has ended (the server closed it, or close() was called). */
  done: Promise<void> = Promise.resolve();

  /** from: the local loopback address to connect from (another client to the server). */
  private constructor(from?: string) {
    this.agent = new Agent({ connections: 1, ...(from ? { localAddress: from } : {}) });
  }

  static async open(url: string, headers: Record<string, string> = {}, from?: string): Promise<EventStream> {
    const stream = new EventStream(from);
    const res = await request(url, { headers, dispatcher: stream.agent, signal: stream.abort.signal, headersTimeout: 10_000 });
    stream.status = res.statusCode;
    if (res.statusCode !== 200) {
      await res.body.text();
      return stream;
    }
    stream.done = stream.read(res.body);
    return stream;
  }

  private async read(body: AsyncIterable<Buffer>): Promise<void> {
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += chunk.toString('utf8');
        for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) this.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    } catch {
      // Aborted by close(), or the server went away: either way the stream has ended.
    }
    this.ended = true;
  }

  private push(e: EventStream['events'][number]): void {
    this.events.push(e);
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(e)) return true;
      w.resolve(e);
      return false;
    });
  }

  /** The first event (seen or to come) that matches; fails after ms. */
  next(test: (e: EventStream['events'][number]) => boolean, ms = 10_000): Promise<EventStream['events'][number]> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching event within ${ms} ms; got ${this.events.map((e) => e.event).join(', ')}`)), ms);
      this.waiters.push({ test, resolve: (e) => {
        clearTimeout(timer);
        resolve(e);
      } });
    });
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.agent.close().catch(() => undefined);
  }
}

const WRITE = { 'x-rdx-dashboard': '1' };

function data<T>(reply: Reply): T[] {
  return (reply.body.data ?? []) as T[];
}

/** Polls a run until it has ended (at most limit polls), as the page does through its live feed. */
async function finished(admin: Client, n: number, headers: Record<string, string> = {}, limit = 600): Promise<RunView> {
  for (let i = 0; i < limit; i++) {
    const run = data<RunView>(await admin.get(`/api/runs/${n}`, { headers }))[0];
    if (run && run.state !== 'running') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${n} did not end within ${limit} polls`);
}

describe('simulator: dashboard', function () {
  this.timeout(60_000);
  let t: Harness;
  let admin: Client;
  before(async () => {
    t = await startTest({ journalSize: 50, conformance: conformanceRunner() });
    admin = new Client(t.sim.adminUrl?.replace(/\/$/, '') ?? '');
  });
  after(async () => {
    await admin.close();
    await t.close();
  });

  it('serves one self-contained page whose policy pins its own script and style', async () => {
    const res = await admin.get('/');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).to.include("default-src 'none'").and.include("connect-src 'self'").and.include("frame-ancestors 'none'");
    const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');
    const script = /<script>([\s\S]*)<\/script>/.exec(res.text)?.[1] ?? '';
    const style = /<style>([\s\S]*)<\/style>/.exec(res.text)?.[1] ?? '';
    expect(csp).to.include(`script-src 'sha256-${sha(script)}'`);
    expect(csp).to.include(`style-src 'sha256-${sha(style)}'`);
    expect(res.text.match(/<script/g)).to.have.length(1);
    expect(res.text).to.not.match(/(src|href)=["']?https?:/i);
    expect(res.text).to.not.include('rdx-secret');
  });

  it('describes the simulator for the quick start, with the demo secret only', async () => {
    const state = items(await admin.get('/api/state'))[0];
    expect(state).to.include({ baseUrl: t.sim.baseUrl, clientId: 'rdx-client', clientSecret: 'rdx-secret', seed: 1, records: 100, adminTokenRequired: false });
    expect(state?.['counts']).to.deep.equal(t.store.counts());
    const other = await startTest({ clientSecret: 'not-the-demo-one' }, false);
    const otherAdmin = new Client(other.sim.adminUrl?.replace(/\/$/, '') ?? '');
    try {
      const text = [(await otherAdmin.get('/api/state')).text, (await otherAdmin.get('/api/personas')).text, (await otherAdmin.get('/')).text].join('\n');
      expect(JSON.parse((await otherAdmin.get('/api/state')).text).data[0].clientSecret).to.equal(null);
      expect(text).to.not.include('not-the-demo-one');
    } finally {
      await otherAdmin.close();
      await other.close();
    }
  });

  it('answers errors with the spec\'s error envelope', async () => {
    const check = (res: Reply, status: number): void => {
      expect(res.status, res.text).to.equal(status);
      expect(res.body.message).to.be.a('string');
      expect(res.body.errors).to.be.an('array').that.is.not.empty;
      for (const e of res.body.errors ?? []) expect(e).to.have.keys('message', 'data');
    };
    check(await admin.get('/api/nothing'), 404);
    check(await admin.send('DELETE', '/api/state', { headers: WRITE }), 405);
    check(await admin.put('/api/personas', { active: ['no-such-persona'] }, { headers: WRITE }), 400);
    check(await admin.put('/api/personas', { active: 'missing-message' }, { headers: WRITE }), 400);
    check(await admin.send('PUT', '/api/personas', { raw: '{not json', headers: { ...WRITE, 'content-type': 'application/json' } }), 400);
    check(await admin.put('/api/chaos', { latency: ['soon'] }, { headers: WRITE }), 400);
    check(await admin.post('/api/reseed', { seed: -1, records: 'many' }, { headers: WRITE }), 400);
    check(await admin.get('/api/records/nothing'), 404);
    check(await admin.get('/api/records/users?size=100000'), 400);
    check(await admin.get('/api/journal/999999'), 404);
    check(await admin.get('/api/runs/7'), 404);
    check(await admin.get('/reports/nothing/report.html'), 404);
  });

  it('refuses changes without its header, from another origin, or under a name other than loopback', async () => {
    expect((await admin.post('/api/reset', {})).status).to.equal(403);
    expect((await admin.post('/api/reset', {}, { headers: { ...WRITE, origin: 'http://evil.example' } })).status).to.equal(403);
    const rebound = await admin.get('/api/state', { headers: { host: 'evil.example' } });
    expect(rebound.status).to.equal(403);
    expect(rebound.body.errors).to.be.an('array');
    expect((await admin.get('/', { headers: { host: 'evil.example:8080' } })).status).to.equal(403);
    expect((await admin.get('/api/state', { headers: { host: `localhost:${new URL(t.sim.baseUrl).port}` } })).status).to.equal(200);
  });

  it('switches personas on and off at runtime', async () => {
    expect((await t.client.get('/ats/job-offers')).body.message).to.be.a('string');
    const on = await admin.put('/api/personas', { active: ['missing-message'] }, { headers: WRITE });
    expect(on.status).to.equal(200);
    expect(data<{ name: string; active: boolean }>(on).find((p) => p.name === 'missing-message')?.active).to.equal(true);
    expect(t.sim.options.personas.map((p) => p.name)).to.deep.equal(['missing-message']);
    const broken = await t.client.get('/ats/job-offers');
    expect(broken.status).to.equal(200);
    expect(broken.body).to.not.have.property('message');
    expect(items(await admin.get('/api/state'))[0]?.['personas']).to.deep.equal([{ name: 'missing-message', kind: 'fault' }]);
    expect((await admin.put('/api/personas', { active: [] }, { headers: WRITE })).status).to.equal(200);
    expect((await t.client.get('/ats/job-offers')).body.message).to.be.a('string');
  });

  it('takes a persona\'s options too: path-prefix moves the API, and back', async () => {
    const before = t.sim.baseUrl;
    await admin.put('/api/personas', { active: ['path-prefix'] }, { headers: WRITE });
    try {
      expect(t.sim.baseUrl).to.equal(`${before}/api/v1`);
      expect((await t.client.get(`${t.sim.baseUrl}/ats/job-offers`)).status).to.equal(200);
      expect((await t.client.get(`${before}/ats/job-offers`)).status).to.equal(404);
      const state = items(await admin.get('/api/state'))[0];
      expect(state).to.include({ baseUrl: `${before}/api/v1`, basePath: '/api/v1' });
    } finally {
      await admin.put('/api/personas', { active: [] }, { headers: WRITE });
    }
    expect(t.sim.baseUrl).to.equal(before);
    expect(personaByName('path-prefix')?.options?.basePath).to.equal('/api/v1');
  });

  it('sets latency and chaos at runtime, never for itself', async () => {
    const set = await admin.put('/api/chaos', { latency: ['GET /ats/job-offers=1'], errorRate: 1 }, { headers: WRITE });
    expect(set.status).to.equal(200);
    expect(items(set)[0]).to.include({ errorRate: 1, dropRate: 0, active: true, seed: 1 });
    try {
      expect((await t.client.get('/ats/job-offers')).status).to.equal(503);
      expect((await admin.get('/api/state')).status).to.equal(200);
      expect(items(await admin.get('/api/state'))[0]?.['chaos']).to.include({ text: 'latency GET /ats/job-offers=1; 100% answered 503; seed 1' });
    } finally {
      await admin.put('/api/chaos', { latency: [], errorRate: 0, dropRate: 0 }, { headers: WRITE });
    }
    expect((await t.client.get('/ats/job-offers')).status).to.equal(200);
  });

  it('pages and searches the records, with the links between them', async () => {
    const page = await admin.get('/api/records/job-offers?page=2&size=5');
    expect(page.status).to.equal(200);
    expect(data(page)).to.deep.equal(t.store.jobOffers.values().slice(5, 10));
    const meta = page.body['meta'] as unknown as { total: number; pages: number; links: Record<string, Record<string, number>> };
    expect(meta.total).to.equal(t.store.jobOffers.size);
    expect(meta.pages).to.equal(Math.ceil(t.store.jobOffers.size / 5));

    // Pick a job offer that has application steps, and follow its links.
    const step = t.store.applicationSteps.values()[0];
    const ref = step?.job_offer_reference ?? '';
    const offer = await admin.get(`/api/records/job-offers?ref=${encodeURIComponent(ref)}`);
    const links = (offer.body['meta'] as unknown as typeof meta).links[ref];
    const steps = t.store.applicationSteps.values().filter((s) => s.job_offer_reference === ref);
    const activities = t.store.jobboardActivities.values().filter((a) => a.job_offer_reference === ref);
    expect(links).to.deep.equal({
      attributes: t.store.jobOffers.get(ref)?.attributes?.length ?? 0,
      applicationSteps: steps.length,
      jobboardActivities: activities.length,
      jobboardJobOffers: t.store.jobboardJobOffers.values().filter((j) => j.reference === ref).length,
    });
    const linked = await admin.get(`/api/records/application-steps?ref=${encodeURIComponent(ref)}&size=200`);
    expect(data(linked)).to.deep.equal(steps);
    expect((linked.body['meta'] as unknown as { links: Record<string, unknown> }).links[ref]).to.deep.equal({ jobOffer: true });

    const title = t.store.jobOffers.values()[3]?.title ?? '';
    const found = data<{ title: string }>(await admin.get(`/api/records/job-offers?q=${encodeURIComponent(title.toUpperCase())}`));
    expect(found.map((f) => f.title)).to.include(title);
    const attributes = data<{ job_offer_reference: string; name: string }>(await admin.get('/api/records/attributes?size=200'));
    const total = t.store.jobOffers.values().reduce((n, o) => n + (o.attributes?.length ?? 0), 0);
    expect(attributes).to.have.length(Math.min(total, 200));
    expect(attributes[0]).to.have.keys('job_offer_reference', 'name', 'value');
    expect(data(await admin.get('/api/records/users?size=200'))).to.deep.equal(t.store.users);
  });

  it('streams the journal live, with bodies a request away and secrets masked', async () => {
    const stream = await EventStream.open(`${t.sim.adminUrl ?? ''}api/events`);
    try {
      expect(stream.status).to.equal(200);
      await stream.next((e) => e.event === 'journal' && e.data['snapshot'] === true);
      const token = await t.client.login();
      await t.client.get('/ats/job-offers?reference=JO-LIVE-1');
      const live = await stream.next((e) => e.event === 'journal'
        && (e.data['entries'] as JournalSummary[]).some((s) => s.path === '/ats/job-offers?reference=JO-LIVE-1'));
      const entries = live.data['entries'] as JournalSummary[];
      const list = entries.find((s) => s.path === '/ats/job-offers?reference=JO-LIVE-1');
      expect(list).to.include({ method: 'GET', status: 200, clientId: 'rdx-client' });
      expect(list).to.not.have.property('responseBody');
      const login = (await stream.next((e) => e.event === 'journal' && (e.data['entries'] as JournalSummary[]).some((s) => s.operationId === 'requestToken')))
        .data['entries'] as JournalSummary[];
      const loginId = login.find((s) => s.operationId === 'requestToken')?.id ?? 0;
      const full = data<JournalEntry & { id: number }>(await admin.get(`/api/journal/${loginId}`))[0];
      expect(full?.requestBody).to.include('"client_secret":"***"');
      expect(full?.responseBody).to.include('"access_token":"***"');
      const listed = data<JournalEntry>(await admin.get(`/api/journal/${list?.id ?? 0}`))[0];
      expect(listed?.requestHeaders['authorization']).to.equal('Bearer ***');
      expect(JSON.stringify(stream.events)).to.not.include(token).and.not.include('rdx-secret');

      expect((await admin.post('/api/reset', {}, { headers: WRITE })).status).to.equal(200);
      await stream.next((e) => e.event === 'reset');
      expect((await admin.get(`/api/journal/${list?.id ?? 0}`)).status, 'gone with the reset').to.equal(404);
    } finally {
      await stream.close();
    }
  });

  it('sends each request to a live page exactly once, in order', async () => {
    const stream = await EventStream.open(`${t.sim.adminUrl ?? ''}api/events`);
    try {
      await stream.next((e) => e.event === 'journal' && e.data['snapshot'] === true);
      for (let i = 0; i < 30; i++) {
        await t.client.get(`/ats/job-offers?reference=ONCE-${i}`);
        // Some requests land in one batch, some in the next: both ways must add up to each entry once.
        if (i % 7 === 0) await stream.next((e) => e.event === 'journal' && (e.data['entries'] as JournalSummary[]).some((s) => s.path.endsWith(`ONCE-${i}`)));
      }
      await stream.next((e) => e.event === 'journal' && (e.data['entries'] as JournalSummary[]).some((s) => s.path.endsWith('ONCE-29')));
      const sent = stream.events.filter((e) => e.event === 'journal' && e.data['snapshot'] === false)
        .flatMap((e) => e.data['entries'] as JournalSummary[]);
      expect(sent.map((s) => s.path)).to.deep.equal(Array.from({ length: 30 }, (_, i) => `/ats/job-offers?reference=ONCE-${i}`));
      const ids = sent.map((s) => s.id);
      expect(ids).to.deep.equal(ids.map((_, i) => (ids[0] ?? 0) + i));
    } finally {
      await stream.close();
    }
  });

  it('reseeds and resets through the page\'s endpoints', async () => {
    const res = await admin.post('/api/reseed', { seed: 3, records: 50 }, { headers: WRITE });
    expect(res.status).to.equal(200);
    expect(t.store.jobOffers.size).to.equal(10);
    expect(items(await admin.get('/api/state'))[0]).to.include({ seed: 3, records: 50 });
    await admin.post('/api/reseed', { seed: 1, records: 100 }, { headers: WRITE });
    expect(items(await admin.get('/api/state'))[0]).to.include({ seed: 1, records: 100 });
  });

  it('exports a snapshot as a download and imports it back: the store is again what was exported', async () => {
    const exported = await admin.get('/api/snapshot');
    expect(exported.status).to.equal(200);
    expect(exported.headers['content-disposition']).to.equal('attachment; filename="rdx-simulator-snapshot.json"');
    expect(exported.headers['cache-control']).to.equal('no-store');
    const before = t.store.dump();
    expect(parseSnapshot(exported.text).store).to.deep.equal(before);
    const counts = t.store.counts();

    expect((await admin.post('/api/reseed', { seed: 7, records: 60 }, { headers: WRITE })).status).to.equal(200);
    expect(t.store.counts()).to.not.deep.equal(counts);
    const stream = await EventStream.open(`${t.sim.adminUrl ?? ''}api/events`);
    try {
      await stream.next((e) => e.event === 'journal' && e.data['snapshot'] === true);
      const imported = await admin.send('PUT', '/api/snapshot', { raw: exported.text, headers: { ...WRITE, 'content-type': 'application/json' } });
      expect(imported.status, imported.text).to.equal(200);
      expect(data(imported)[0]).to.deep.equal(counts);
      expect(imported.body.message).to.match(/^Snapshot imported: the store holds its \d+ records now \(first seeded with seed 1, 100 records\)\.$/);
      await stream.next((e) => e.event === 'state');
    } finally {
      await stream.close();
    }
    expect(t.store.dump()).to.deep.equal(before);
    expect(items(await admin.get('/api/state'))[0]).to.include({ seed: 1, records: 100 });
  });

  it('refuses a corrupt or foreign snapshot, or one sent without its header, and changes nothing', async () => {
    const before = t.store.dump();
    const put = (raw: string, headers: Record<string, string> = WRITE): Promise<Reply> => admin.send('PUT', '/api/snapshot', { raw, headers });
    for (const [raw, why] of [
      ['{"format": "rdx-simulator-snapshot", "version": 1, <img src=x onerror=alert(1)>', /not JSON/],
      ['{"users": []}', /not an rdx simulator snapshot/],
      [(await admin.get('/api/snapshot')).text.replace('"version":1', '"version":9'), /snapshot format version 9/],
    ] as const) {
      const refused = await put(raw);
      expect(refused.status, refused.text).to.equal(400);
      expect(refused.body.message).to.match(/^The snapshot was refused, nothing changed: /).and.match(why);
      expect(refused.body.errors).to.be.an('array');
    }
    const valid = (await admin.get('/api/snapshot')).text;
    expect((await admin.post('/api/reseed', { seed: 5, records: 30 }, { headers: WRITE })).status).to.equal(200);
    const reseeded = t.store.dump();
    expect((await put(valid, {})).status, 'without X-Rdx-Dashboard').to.equal(403);
    expect((await put(valid, { ...WRITE, origin: 'http://evil.example' })).status, 'from another origin').to.equal(403);
    expect((await admin.get('/api/snapshot', { headers: { host: 'evil.example' } })).status, 'under a foreign name').to.equal(403);
    expect((await admin.send('DELETE', '/api/snapshot', { headers: WRITE })).headers['allow']).to.equal('GET, PUT');
    expect(t.store.dump()).to.deep.equal(reseeded);
    expect((await put(valid)).status).to.equal(200);
    expect(t.store.dump()).to.deep.equal(before);
  });

  it('tells a live page when the store was replaced through the admin API too', async () => {
    const stream = await EventStream.open(`${t.sim.adminUrl ?? ''}api/events`);
    try {
      await stream.next((e) => e.event === 'journal' && e.data['snapshot'] === true);
      expect(stream.events.some((e) => e.event === 'state')).to.equal(false);
      const text = t.sim.exportSnapshot();
      expect((await admin.send('PUT', '/snapshot', { raw: text, headers: { 'x-rdx-admin': '1' } })).status).to.equal(200);
      await stream.next((e) => e.event === 'state');
    } finally {
      await stream.close();
    }
  });

  it('runs conformance against itself, one run at a time, and serves the report', async () => {
    const started = await admin.post('/api/runs', {}, { headers: WRITE });
    expect(started.status).to.equal(202);
    const run = data<RunView>(started)[0] as RunView;
    expect(run).to.include({ n: 1, state: 'running' });
    const busy = await admin.post('/api/runs', {}, { headers: WRITE });
    expect(busy.status).to.equal(409);
    expect(busy.body.errors).to.be.an('array');
    const done = await finished(admin, run.n);
    expect(done.state, done.error).to.equal('done');
    expect(done.card).to.include({ verdict: 'CONFORMANT', word: 'CONFORMANT', mustFailures: 0, unjudgedMust: 0 });
    expect(done.card?.total).to.be.greaterThan(100);
    const report = await admin.get(`/${done.reportPath ?? ''}`);
    expect(report.status).to.equal(200);
    expect(report.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(String(report.headers['content-security-policy'])).to.include('sandbox allow-scripts');
    expect(report.text).to.include('CONFORMANT');
    expect(report.text).to.not.include('rdx-secret');
    expect(data<RunView>(await admin.get('/api/runs')).map((r) => r.n)).to.deep.equal([1]);
  });

  it('starts no run when the simulator was given no harness, and says so', async () => {
    const bare = await startTest({ records: 0 }, false);
    const client = new Client(bare.sim.adminUrl?.replace(/\/$/, '') ?? '');
    try {
      const refused = await client.post('/api/runs', {}, { headers: WRITE });
      expect(refused.status).to.equal(501);
      expect(refused.body.message).to.match(/without the harness/);
      expect(data<RunView>(await client.get('/api/runs'))).to.deep.equal([]);
    } finally {
      await client.close();
      await bare.close();
    }
  });

  it('caps the live streams, and each client to half of them, and ends them on close, which still resolves at once', async () => {
    const sim = await startTest({}, false);
    const url = `${sim.sim.adminUrl ?? ''}api/events`;
    const streams: EventStream[] = [];
    try {
      // Two clients (two loopback addresses), four streams each: all the streams there are.
      for (const from of ['127.0.0.1', '127.0.0.2']) for (let i = 0; i < 4; i++) streams.push(await EventStream.open(url, {}, from));
      expect(streams.map((s) => s.status)).to.deep.equal(new Array(8).fill(200));
      const refused = await EventStream.open(url, {}, '127.0.0.3');
      expect(refused.status, 'a third client, every stream taken').to.equal(503);
      await refused.close();
      const fifth = await EventStream.open(url, {}, '127.0.0.1');
      expect(fifth.status, 'a client past its share').to.equal(429);
      await fifth.close();
      await sim.sim.close();
      await Promise.all(streams.map((s) => s.done));
      expect(streams.every((s) => s.ended), 'every stream ended with the server').to.equal(true);
    } finally {
      await Promise.all(streams.map((s) => s.close()));
      await sim.close();
    }
  });
});

describe('simulator: the live journal and pages of other sites', function () {
  this.timeout(60_000);

  it('gives no stream to a frame or a request another site started, so the dashboard still gets one', async () => {
    const sim = await startTest({}, false);
    const url = `${sim.sim.adminUrl ?? ''}api/events`;
    // What Chromium sends for <iframe src=".../__admin/api/events"> on a page of another origin: no Origin header.
    const frame = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' };
    const frames: EventStream[] = [];
    const streams: EventStream[] = [];
    try {
      for (let i = 0; i < 8; i++) frames.push(await EventStream.open(url, frame));
      expect(frames.map((f) => f.status)).to.deep.equal(new Array(8).fill(403));
      // Another port of 127.0.0.1 is the same site, not the same origin; a fetch from there is refused too.
      const sameSite = await EventStream.open(url, { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });
      expect(sameSite.status).to.equal(403);
      frames.push(sameSite);
      // Loaded into a frame of the dashboard's own origin, it only holds a stream: refused as well.
      const ownFrame = await EventStream.open(url, { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' });
      expect(ownFrame.status).to.equal(403);
      frames.push(ownFrame);
      // What the dashboard's own fetch sends, and what a script without these headers sends: served.
      const page = await EventStream.open(url, { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });
      streams.push(page);
      expect(page.status).to.equal(200);
      await page.next((e) => e.event === 'hello');
      const script = await EventStream.open(url);
      streams.push(script);
      expect(script.status).to.equal(200);
      // The rest of the dashboard's API refuses another site's requests as well.
      const state = await request(`${sim.sim.adminUrl ?? ''}api/state`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' } });
      await state.body.text();
      expect(state.statusCode).to.equal(403);
    } finally {
      await Promise.all([...frames, ...streams].map((s) => s.close()));
      await sim.close();
    }
  });
});

describe('simulator: dashboard behind an admin token', function () {
  this.timeout(60_000);
  const TOKEN = 'let-me-in-please';
  let t: Harness;
  let admin: Client;
  before(async () => {
    t = await startTest({ adminToken: TOKEN, records: 50, conformance: conformanceRunner() }, false);
    admin = new Client(t.sim.adminUrl?.replace(/\/$/, '') ?? '');
  });
  after(async () => {
    await admin.close();
    await t.close();
  });

  it('serves the page (a login form) but nothing else without the token', async () => {
    const page = await admin.get('/');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('id="login"');
    const refused = await admin.get('/api/state');
    expect(refused.status).to.equal(401);
    expect(refused.body.errors).to.be.an('array');
    expect((await EventStream.open(`${t.sim.adminUrl ?? ''}api/events`)).status).to.equal(401);
    expect((await admin.get('/api/state', { headers: { 'x-rdx-admin-token': 'wrong' } })).status).to.equal(401);
    const allowed = await admin.get('/api/state', { headers: { 'x-rdx-admin-token': TOKEN } });
    expect(allowed.status).to.equal(200);
    expect(items(allowed)[0]).to.include({ adminTokenRequired: true });
    expect(allowed.text).to.not.include(TOKEN);
  });

  it('exports and imports a snapshot only with the token', async () => {
    const auth = { 'x-rdx-admin-token': TOKEN };
    expect((await admin.get('/api/snapshot')).status).to.equal(401);
    const exported = await admin.get('/api/snapshot', { headers: auth });
    expect(exported.status).to.equal(200);
    expect(exported.text).to.not.include(TOKEN);
    const before = t.store.dump();
    await admin.post('/api/reseed', { seed: 9, records: 20 }, { headers: { ...auth, ...WRITE } });
    const reseeded = t.store.dump();
    expect((await admin.send('PUT', '/api/snapshot', { raw: exported.text, headers: WRITE })).status).to.equal(401);
    expect((await admin.send('PUT', '/api/snapshot', { raw: exported.text, headers: { ...WRITE, 'x-rdx-admin-token': 'wrong' } })).status).to.equal(401);
    expect(t.store.dump()).to.deep.equal(reseeded);
    expect((await admin.send('PUT', '/api/snapshot', { raw: exported.text, headers: { ...auth, ...WRITE } })).status).to.equal(200);
    expect(t.store.dump()).to.deep.equal(before);
  });

  it('opens a report with a one-time ticket, never with the token in the URL', async () => {
    const auth = { 'x-rdx-admin-token': TOKEN };
    const run = data<RunView>(await admin.post('/api/runs', {}, { headers: { ...auth, ...WRITE } }))[0] as RunView;
    const done = await finished(admin, run.n, auth);
    expect(done.state, done.error).to.equal('done');
    expect((await admin.get(`/${done.reportPath ?? ''}`)).status).to.equal(401);
    expect((await admin.get(`/${done.reportPath ?? ''}`, { headers: auth })).status).to.equal(200);
    const ticket = await admin.post(`/api/runs/${run.n}/ticket`, {}, { headers: { ...auth, ...WRITE } });
    const url = (data<{ url: string }>(ticket)[0] as { url: string }).url;
    expect(url).to.match(/^\/__admin\/reports\/[^/]+\/report\.html\?ticket=[A-Za-z0-9_-]{24}$/);
    expect(url).to.not.include(TOKEN);
    const origin = new URL(t.sim.baseUrl).origin;
    expect((await admin.get(`${origin}${url}`)).status).to.equal(200);
    expect((await admin.get(`${origin}${url}`)).status, 'a ticket opens the report once').to.equal(401);
  });
});

describe('simulator: dashboard switched off', () => {
  it('answers 404 for the page and its API with --no-admin', async () => {
    const t = await startTest({ admin: false }, false);
    try {
      expect(t.sim.dashboardUrl).to.equal(undefined);
      for (const path of ['/__admin/', '/__admin/api/state', '/__admin']) {
        const res = await t.client.get(path);
        expect(res.status, path).to.equal(404);
        expect(res.body.errors).to.be.an('array');
      }
    } finally {
      await t.close();
    }
  });
});
