// --state persistence, snapshot export/import and the seed cache. The crash test SIGKILLs `rdx simulate` during a
// write load, aimed at a write of the file (a bounded number of times, each within seconds), and checks the file is
// a whole snapshot every time, holding every write acknowledged before it was taken.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, truncateSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { Agent, request } from 'undici';
import { UsageError } from '../src/errors.js';
import { startSimulator } from './index.js';
import { seedStore } from './seed.js';
import { seedStoreCached } from './seed-cache.js';
import { SNAPSHOT_VERSION, parseSnapshot, snapshotPieces, snapshotSource, snapshotText } from './snapshot.js';
import { StateFile } from './state.js';
import { Store } from './store.js';
import { MAX_SEQUENCE } from './table.js';
import { Client, items, startTest } from '../test/support/simulator.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const ACTIVITY = { recorded_at: '2026-05-01', job_offer_reference: 'JO-STATE-1', status: 'viewed', count: 1 };

describe('simulator: --state, snapshots and the seed cache', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rdx-state-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps what clients wrote across a restart, ids and cursors included', async () => {
    const file = join(dir, 'state.json');
    const first = await startTest({ stateFile: file, records: 50 });
    const created = items(await first.client.post('/jobboard/activities', [ACTIVITY]))[0];
    await first.client.delete('/jobboard/job-offers/1');
    const before = first.store.dump();
    await first.close();

    const second = await startTest({ stateFile: file, records: 999, seed: 5 });
    try {
      expect(second.store.dump()).to.deep.equal(before);
      expect(items(await second.client.get(`/jobboard/activities?job_offer_reference=JO-STATE-1`))).to.deep.equal([created]);
      const next = items(await second.client.post('/jobboard/activities', [ACTIVITY]))[0];
      expect(next?.['id'], 'ids go on from the saved sequence').to.equal(Number(created?.['id']) + 1);
      expect((await second.client.patch('/jobboard/job-offers/1', {})).status, 'a deleted record stays deleted').to.equal(404);
      const admin = new Client(second.sim.adminUrl ?? '');
      expect((await admin.get('health')).body.data?.[0], 'reset goes back to the seed the state began with').to.include({ seed: 1, records: 50 });
      await admin.close();
    } finally {
      await second.close();
    }
  });

  it('refuses a damaged, foreign or invalid file with the file and what is wrong, and does not start', async () => {
    const valid = JSON.parse(snapshotText((() => {
      const s = new Store();
      seedStore(s, 1, 20);
      return s;
    })(), { seed: 1, records: 20 })) as Record<string, unknown>;
    type Rows = { jobboardActivities: { rows: [number, Record<string, unknown>][] } };
    const badRecord = structuredClone(valid);
    ((badRecord['store'] as Rows).jobboardActivities.rows[1] as [number, Record<string, unknown>])[1]['count'] = 'many';
    const spoiled = (spoil: (store: Record<string, { last: number; rows: unknown[] }>) => void): string => {
      const copy = structuredClone(valid);
      spoil(copy['store'] as Record<string, { last: number; rows: unknown[] }>);
      return JSON.stringify(copy);
    };
    const cases: [string, string, RegExp][] = [
      ['torn', JSON.stringify(valid).slice(0, 500), /not JSON/],
      ['no table', spoiled((store) => delete store['jobboardJobOffers']), /store\.jobboardJobOffers must be \{last, rows\}/],
      ['not a row', spoiled((store) => { (store['applicationSteps'] as { rows: unknown[] }).rows[0] = [1]; }), /store\.applicationSteps\.rows\[0\] must be \[sequence number, record\]/],
      ['past last', spoiled((store) => { (store['applicationSteps'] as { last: number }).last = 1; }), /store\.applicationSteps\.rows\[1\]: sequence number 2 is not from 1 to last \(1\)/],
      ['id not its sequence', spoiled((store) => { ((store['jobboardActivities'] as { rows: [number, Record<string, unknown>][] }).rows[0] as [number, Record<string, unknown>])[1]['id'] = 99; }), /store\.jobboardActivities\.rows\[0\]: id 99 is not its sequence number 1/],
      ['foreign', '{"users": []}', /not an rdx simulator snapshot/],
      ['future', JSON.stringify({ ...valid, version: SNAPSHOT_VERSION + 1 }), /version 2; this simulator reads version 1/],
      ['invalid record', JSON.stringify(badRecord), /store\.jobboardActivities\.rows\[1\]: \/count: must be number/],
    ];
    for (const [name, text, expected] of cases) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, text);
      let error: unknown;
      await startSimulator({ port: 0, stateFile: file }).then((sim) => sim.close(), (e: unknown) => {
        error = e;
      });
      expect(error, name).to.be.instanceOf(UsageError);
      expect((error as Error).message, name).to.include(file).and.match(expected);
      expect(readFileSync(file, 'utf8'), `${name}: the file is left as it was`).to.equal(text);
    }
  });

  it('refuses a state file larger than a snapshot can be by its size, before reading it (issue 36)', async () => {
    // 3 GB, sparse: no disk space, but reading it whole would take 3 GB of memory first.
    const file = join(dir, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 ** 3);
    let error: unknown;
    await startSimulator({ port: 0, stateFile: file }).then((sim) => sim.close(), (e: unknown) => {
      error = e;
    });
    expect(error).to.be.instanceOf(UsageError);
    expect((error as Error).message).to.include(file).and.include('3221225472 bytes is more than a snapshot can be');
  });

  it('exports and imports a snapshot over the admin surface, all or nothing', async () => {
    const t = await startTest({ records: 40 });
    const admin = new Client(t.sim.adminUrl?.replace(/\/$/, '') ?? '');
    try {
      const exported = await admin.get('/snapshot');
      expect(exported.status).to.equal(200);
      expect(exported.headers['content-disposition']).to.match(/attachment/);
      expect(parseSnapshot(exported.text).store).to.deep.equal(t.store.dump());
      await t.client.post('/jobboard/activities', [ACTIVITY]);
      const changed = t.store.dump();

      const broken = await admin.send('PUT', '/snapshot', { raw: exported.text.replace('"version":1', '"version":9'), headers: { 'content-type': 'application/json' } });
      expect(broken.status).to.equal(400);
      expect(broken.body.message).to.match(/refused, nothing changed: snapshot format version 9/);
      expect(t.store.dump(), 'a refused import changes nothing').to.deep.equal(changed);

      const restored = await admin.send('PUT', '/snapshot', { raw: exported.text, headers: { 'content-type': 'application/json' } });
      expect(restored.status, restored.text).to.equal(200);
      expect(snapshotText(t.store, { seed: 1, records: 40 }, 0)).to.equal(snapshotText((() => {
        const s = new Store();
        s.load(parseSnapshot(exported.text).store);
        return s;
      })(), { seed: 1, records: 40 }, 0));
      expect((await admin.send('DELETE', '/snapshot')).headers['allow']).to.equal('GET, HEAD, PUT');
    } finally {
      await admin.close();
      await t.close();
    }
  });

  it('never writes through a planted temporary file, writes through a linked state file, and refuses a dangling link', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    const file = join(dir, 'state.json');
    // The name the old writer used for its temporary file, planted as a link to a file it must not write.
    symlinkSync(victim, join(dir, `.state.json.${process.pid}.tmp`));
    const first = await startTest({ stateFile: file, records: 20 });
    await first.client.post('/jobboard/activities', [ACTIVITY]);
    await first.close();
    expect(readFileSync(victim, 'utf8') === 'untouched', 'the planted link was not followed').to.equal(true);
    expect(parseSnapshot(readFileSync(file, 'utf8')).store.jobboardActivities.rows.some(([, r]) => r.job_offer_reference === 'JO-STATE-1')).to.equal(true);

    // A state file that is a link (to a volume, say) stays a link; the file it names gets the snapshot.
    const elsewhere = join(dir, 'volume');
    mkdirSync(elsewhere);
    const real = join(elsewhere, 'real.json');
    const link = join(dir, 'linked.json');
    writeFileSync(real, readFileSync(file));
    symlinkSync(real, link);
    const second = await startTest({ stateFile: link, records: 20 });
    const created = items(await second.client.post('/jobboard/activities', [{ ...ACTIVITY, job_offer_reference: 'JO-LINKED' }]))[0];
    await second.close();
    expect(lstatSync(link).isSymbolicLink(), 'still a link').to.equal(true);
    expect(readlinkSync(link)).to.equal(real);
    const saved = parseSnapshot(readFileSync(real, 'utf8')).store.jobboardActivities.rows;
    expect(saved.map(([, r]) => r)).to.deep.include(created);
    expect(readdirSync(elsewhere), 'no temporary file left beside the real file').to.deep.equal(['real.json']);

    const dangling = join(dir, 'dangling.json');
    symlinkSync(join(dir, 'nowhere', 'state.json'), dangling);
    let error: unknown;
    await startSimulator({ port: 0, stateFile: dangling }).then((sim) => sim.close(), (e: unknown) => {
      error = e;
    });
    expect(error).to.be.instanceOf(UsageError);
    expect((error as Error).message).to.include(dangling).and.match(/symbolic link whose target cannot be reached/);
    expect(lstatSync(dangling).isSymbolicLink(), 'the link is left as it was').to.equal(true);
  });

  it('refuses a directory, or a link to one, as the state file; reports a save that fails and retries it on the next change', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const toFolder = join(dir, 'to-folder.json');
    symlinkSync(folder, toFolder);
    for (const [path, expected] of [[folder, /is not a regular file/], [toFolder, /is a symbolic link to .*, which is not a regular file/]] as const) {
      let error: unknown;
      await startSimulator({ port: 0, stateFile: path }).then((sim) => sim.close(), (e: unknown) => {
        error = e;
      });
      expect(error, path).to.be.instanceOf(UsageError);
      expect((error as Error).message).to.include(`--state ${path}: cannot be used`).and.match(expected);
    }

    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const file = join(sub, 'state.json');
    const t = await startTest({ stateFile: file, records: 10 });
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      rmSync(sub, { recursive: true, force: true });
      await t.client.post('/jobboard/activities', [ACTIVITY]);
      for (let i = 0; i < 100 && written.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(written.join(''), 'the failed save is reported').to.include(`could not save the state to ${file}`);
      mkdirSync(sub);
      await t.client.post('/jobboard/activities', [{ ...ACTIVITY, job_offer_reference: 'JO-AFTER' }]);
    } finally {
      process.stderr.write = write;
      await t.close();
    }
    const rows = parseSnapshot(readFileSync(file, 'utf8')).store.jobboardActivities.rows.map(([, r]) => r.job_offer_reference);
    expect(rows, 'both changes saved once the folder is back').to.include('JO-STATE-1').and.include('JO-AFTER');
  });

  it('refuses a snapshot whose ids run past the largest one, and never counts as created an item it could not store', async () => {
    const t = await startTest({ records: 20 });
    const admin = new Client(t.sim.adminUrl?.replace(/\/$/, '') ?? '');
    const json = { 'content-type': 'application/json' };
    type Doc = { store: Record<string, { last: number; rows: [number, Record<string, unknown>][] }> };
    try {
      const doc = JSON.parse(t.sim.exportSnapshot()) as Doc;
      const before = t.store.dump();
      const far = structuredClone(doc);
      (far.store['jobboardActivities'] as Doc['store'][string]).last = 2 ** 53 - 3;
      const refused = await admin.send('PUT', '/snapshot', { raw: JSON.stringify(far), headers: json });
      expect(refused.status, refused.text).to.equal(400);
      expect(refused.body.message).to.include(`store.jobboardActivities.last must be from 0 to ${MAX_SEQUENCE}`);
      expect(t.store.dump(), 'nothing imported').to.deep.equal(before);

      // One id left: a batch of three gets one record and two refusals, and says so.
      const edge = structuredClone(doc);
      (edge.store['jobboardActivities'] as Doc['store'][string]).last = MAX_SEQUENCE - 1;
      expect((await admin.send('PUT', '/snapshot', { raw: JSON.stringify(edge), headers: json })).status).to.equal(200);
      const count = t.store.jobboardActivities.size;
      const res = await t.client.post('/jobboard/activities', [ACTIVITY, ACTIVITY, ACTIVITY]);
      expect(res.status, res.text).to.equal(207);
      expect(res.body.message).to.equal('1 jobboard activity created, 2 items refused.');
      expect(items(res).map((r) => r['id'])).to.deep.equal([MAX_SEQUENCE]);
      expect(JSON.stringify(res.body.errors)).to.include('item 1: no jobboard activity can be created').and.include('item 2:');
      expect(t.store.jobboardActivities.size).to.equal(count + 1);
      expect((await t.client.patch(`/jobboard/activities/${MAX_SEQUENCE}`, { count: 2 })).status, 'the one created can be addressed').to.equal(200);
      const none = await t.client.post('/jobboard/activities', [ACTIVITY]);
      expect(none.status).to.equal(400);
      expect(none.body.message).to.equal('No jobboard activity created: 1 item was refused.');
      expect(t.store.jobboardActivities.size).to.equal(count + 1);
    } finally {
      await admin.close();
      await t.close();
    }
  });

  it('saves in pieces that make exactly the snapshot, and lets the event loop run while it saves', async () => {
    const store = new Store();
    seedStore(store, 2, 20_000);
    const meta = { seed: 2, records: 20_000 };
    expect([...snapshotPieces(snapshotSource(store, meta, 0), 7)].join('')).to.equal(snapshotText(store, meta, 0));
    const empty = new Store();
    expect([...snapshotPieces(snapshotSource(empty, meta, 0))].join('')).to.equal(snapshotText(empty, meta, 0));

    const file = join(dir, 'state.json');
    const state = new StateFile(file, () => snapshotSource(store, meta, 0));
    state.changed();
    const saving = state.flush();
    // A change during the save is not lost: it is in the next one (the one close() waits for).
    store.jobboardActivities.insert((id) => ({ id, ...ACTIVITY }));
    state.changed();
    let turns = 0;
    let done = false;
    const turn = (): void => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    await saving;
    done = true;
    // Written in one go, the save would end before the event loop turned once.
    expect(turns, 'event-loop turns during one save').to.be.at.least(2);
    await state.close();
    expect(readFileSync(file, 'utf8')).to.equal(snapshotText(store, meta, 0));
  });

  it('serves cached seed data byte-identical to generating it', async () => {
    for (const [seed, records] of [[3, 300], [4, 0]] as const) {
      const fresh = new Store();
      seedStore(fresh, seed, records);
      const expected = snapshotText(fresh, { seed, records }, 0);
      for (let i = 0; i < 2; i++) {
        const cached = new Store();
        await seedStoreCached(cached, seed, records);
        expect(snapshotText(cached, { seed, records }, 0), `seed ${seed}, pass ${i}`).to.equal(expected);
      }
    }
  });

  it('leaves the last complete snapshot, with every write acknowledged before it, when killed (SIGKILL) in the middle of writing it', async () => {
    const file = join(dir, 'state.json');
    const temporary = /^\.state\.json\.\d+\.[0-9a-f]{16}\.tmp$/;
    const agent = new Agent({ connections: 8 });
    const ROUNDS = 3;
    let tornWrites = 0;
    let provenWrites = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const { child, baseUrl } = await spawnSimulate(['--state', file, '--records', '2000']);
        const token = await tokenOf(baseUrl, agent);
        /** Each record the server created and answered, with the time (this process's clock) its answer arrived. */
        const acknowledged = new Map<number, { record: unknown; at: number }>();
        let stop = false;
        const writer = async (): Promise<void> => {
          while (!stop) {
            const res = await request(`${baseUrl}/jobboard/activities`, {
              method: 'POST', dispatcher: agent,
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ ...ACTIVITY, count: round * 1000 + i }))),
            }).catch(() => undefined);
            if (!res) return;
            const body = (await res.body.json().catch(() => ({}))) as { data?: { id: number }[] };
            const at = Date.now();
            for (const record of body.data ?? []) acknowledged.set(record.id, { record, at });
          }
        };
        const writers = Array.from({ length: 4 }, writer);
        // First a snapshot that holds some of this round's writes (polled, at most 10 s), so there is something
        // acknowledged before the snapshot the kill must leave; then the kill, as soon as the next write of the file
        // has begun (its temporary file appears), or after 3 s of writing if none does.
        const firstAck = (): number => Math.min(...[...acknowledged.values()].map((a) => a.at));
        for (let poll = 0; poll < 200; poll++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          if (acknowledged.size > 0 && savedAtOf(file) > firstAck()) break;
        }
        await new Promise<void>((resolve) => {
          const watcher = watch(dir, (_event, name) => {
            if (typeof name === 'string' && temporary.test(name)) kill();
          });
          const timer = setTimeout(kill, 3_000);
          function kill(): void {
            clearTimeout(timer);
            watcher.close();
            child.kill('SIGKILL');
            resolve();
          }
        });
        await new Promise((resolve) => child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve));
        stop = true;
        await Promise.all(writers);

        const snapshot = parseSnapshot(readFileSync(file, 'utf8'));
        expect(snapshot.version).to.equal(SNAPSHOT_VERSION);
        const rows = new Map(snapshot.store.jobboardActivities.rows);
        // Every record in the file is one the server created, exactly as it answered it.
        const answered = [...rows].filter(([id]) => acknowledged.has(id));
        expect(answered.filter(([id, record]) => !isDeepStrictEqual(record, acknowledged.get(id)?.record)).map(([id]) => id), 'records unlike their answer').to.deep.equal([]);
        // Every write answered before the snapshot was taken is in it (its savedAt is read before the store is).
        const savedAt = Date.parse(snapshot.savedAt);
        const before = [...acknowledged].filter(([, a]) => a.at < savedAt).map(([id]) => id);
        expect(before.length, `round ${round}: writes acknowledged before the snapshot of ${snapshot.savedAt}`).to.be.at.least(1);
        expect(before.filter((id) => !rows.has(id)), `round ${round}: acknowledged before the snapshot, missing from it`).to.deep.equal([]);
        provenWrites += before.length;
        const temporaries = readdirSync(dir).filter((f) => f !== 'state.json');
        expect(temporaries.length, 'temporary files of the killed process').to.be.at.most(1);
        tornWrites += temporaries.length;
      }
      // The kills are aimed at a write of the file in progress: at least one must have landed in one (its temporary
      // file left behind), or the test never saw the case it is named for.
      expect(tornWrites, `kills, of ${ROUNDS}, that landed while the file was being written`).to.be.at.least(1);
      // The next start cleans up after the killed one and loads the file.
      const { child, baseUrl } = await spawnSimulate(['--state', file]);
      const saved = parseSnapshot(readFileSync(file, 'utf8'));
      const health = await (await request(`${baseUrl.replace(/\/?$/, '')}/__admin/health`, { dispatcher: agent })).body.json() as { data: { counts: Record<string, number> }[] };
      expect(health.data[0]?.counts['jobboardActivities']).to.equal(saved.store.jobboardActivities.rows.length);
      expect(readdirSync(dir)).to.deep.equal(['state.json']);
      child.kill('SIGKILL');
      process.stdout.write(`      (${ROUNDS} kills, ${tornWrites} during a write of the file, whose temporary file was ignored; ${provenWrites} acknowledged writes found in the snapshots)\n`);
    } finally {
      await agent.close();
    }
  });
});

/** The savedAt of the snapshot in `file` (ms), or 0 while there is none. */
function savedAtOf(file: string): number {
  try {
    return Date.parse((JSON.parse(readFileSync(file, 'utf8')) as { savedAt: string }).savedAt) || 0;
  } catch {
    return 0;
  }
}

async function tokenOf(baseUrl: string, agent: Agent): Promise<string> {
  const res = await request(`${baseUrl}/oauth2/token`, {
    method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'rdx-client', client_secret: 'rdx-secret' }),
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}

/** `rdx simulate --port 0 …` in its own process, once it listens (killed after 20 s whatever happens). */
function spawnSimulate(args: string[]): Promise<{ child: ReturnType<typeof spawn>; baseUrl: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'simulate', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const limit = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => clearTimeout(limit));
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ child, baseUrl: url });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`rdx simulate exited with ${String(code)} before listening:\n${out}`)));
  });
}
