// A benchmark subject in its own process, so that the load generator and the server do not share a CPU and
// each memory measurement starts clean. Modes:
//   ceiling                 a bare node:http server answering a fixed ~1 KB JSON body
//   page-reference          a bare node:http server answering a 50-record page it serializes per request
//   simulator <records>     the simulator
//   seed <records>          seeds a store and reports the time it took and the memory it holds
// A server reports {port} over IPC, reports its CPU time between 'measure' and 'measured', and stops when the
// parent disconnects or sends 'stop'.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

function send(message: unknown): void {
  process.send?.(message);
}

function stopOnParent(close: () => Promise<void>): void {
  const stop = (): void => {
    void close().then(() => process.exit(0));
  };
  let since = process.cpuUsage();
  process.on('message', (m) => {
    if (m === 'stop') stop();
    else if (m === 'measure') since = process.cpuUsage();
    else if (m === 'measured') {
      const used = process.cpuUsage(since);
      send({ cpuMicros: used.user + used.system });
    }
  });
  process.on('disconnect', stop);
}

async function serve(answer: () => string): Promise<void> {
  const server = createServer((_req, res) => {
    const body = answer();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  send({ port: typeof address === 'object' && address ? address.port : 0 });
  stopOnParent(() => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }));
}

/** The ceiling's answer: a fixed JSON body of about 1 KB, shaped like a one-record response. */
export const CEILING_BODY = JSON.stringify({
  message: 'Job offer found.',
  data: [{
    publication_at: '2026-03-01T09:00:00Z',
    title: 'Senior Registered Nurse',
    reference: 'JO-2026-000123',
    reference_2: 'REQ-48213',
    subsidiary: 'Northwind Health',
    subsidiary_ats_id: 'ATS-SUB-01',
    description: `${'Northwind Health is hiring a Senior Registered Nurse in Lyon. '.repeat(12)}`.trim(),
    attributes: [{ name: 'contract_type', value: 'permanent' }, { name: 'work_mode', value: 'on-site' }],
  }],
});

async function pageReference(): Promise<void> {
  const { createFaker, jobboardActivity } = await import('../src/data/factories.js');
  const faker = createFaker(1);
  const page = {
    message: '50 jobboard activities on this page.',
    data: Array.from({ length: 50 }, (_, i) => ({ id: i + 1, ...jobboardActivity(faker) })),
    meta: { next_link: 'http://127.0.0.1:8080/jobboard/activities?status=viewed&min_date=2026-03-01&max_date=2026-09-30&cursor=YWZ0ZXI6NTA' },
  };
  await serve(() => JSON.stringify(page));
}

async function simulator(records: number): Promise<void> {
  const { startSimulator } = await import('../simulator/index.js');
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, records });
  send({ port: Number(new URL(sim.baseUrl).port) });
  stopOnParent(() => sim.close());
}

async function seed(records: number): Promise<void> {
  const { Store } = await import('../simulator/store.js');
  const { seedStore } = await import('../simulator/seed.js');
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const store = new Store();
  const started = performance.now();
  seedStore(store, 1, records);
  const seconds = (performance.now() - started) / 1000;
  gc?.();
  const after = process.memoryUsage();
  send({ records, seconds, rss: after.rss, heapUsed: after.heapUsed, baselineRss: before.rss, counts: store.counts() });
  process.exit(0);
}

const [mode, arg] = process.argv.slice(2);
const records = Number(arg ?? 1000);
const run = mode === 'ceiling' ? serve(() => CEILING_BODY) : mode === 'page-reference' ? pageReference() : mode === 'simulator' ? simulator(records) : mode === 'seed' ? seed(records) : undefined;
if (!run) {
  process.stderr.write(`bench child: unknown mode ${String(mode)}\n`);
  process.exit(2);
}
run.catch((error: unknown) => {
  process.stderr.write(`bench child ${String(mode)}: ${(error as Error).message}\n`);
  process.exit(1);
});
