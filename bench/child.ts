// A benchmark subject in its own process, so that the load generator and the server do not share a CPU and
// each memory measurement starts clean. Modes:
//   ceiling                 a bare node:http server answering a fixed ~1 KB JSON body
//   page-reference FILE     a bare node:http server answering the page in FILE, parsed once and serialized per request
//   parse-reference         a bare node:http server that reads a JSON body, parses it and answers it as {message, data}
//   simulator <records>     the simulator
//   seed <records>          seeds a store and reports the time it took and the memory it holds
// A server reports {port} over IPC, reports its CPU time between 'measure' and 'measured', and stops when the
// parent disconnects or sends 'stop'.
import { createServer, type Server } from 'node:http';
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

/** Listens on a free loopback port, reports it to the parent, and closes every connection when the parent stops it. */
async function listenForParent(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  send({ port: typeof address === 'object' && address ? address.port : 0 });
  stopOnParent(() => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }));
}

async function serve(answer: () => string): Promise<void> {
  const server = createServer((_req, res) => {
    const body = answer();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  await listenForParent(server);
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

/** The same page the simulator answers (the parent saved it to a file), serialized per request as a server would. */
async function pageReference(file: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const page: unknown = JSON.parse(readFileSync(file, 'utf8'));
  await serve(() => JSON.stringify(page));
}

/** The least a server that accepts a batch must do: read the body, parse it, answer it. */
async function parseReference(): Promise<void> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const data: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({ message: 'created', data });
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
  });
  await listenForParent(server);
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
const MODES: Record<string, () => Promise<void>> = {
  ceiling: () => serve(() => CEILING_BODY),
  'page-reference': () => pageReference(String(arg)),
  'parse-reference': parseReference,
  simulator: () => simulator(records),
  seed: () => seed(records),
};
const run = mode !== undefined && Object.hasOwn(MODES, mode) ? (MODES[mode] as () => Promise<void>)() : undefined;
if (!run) {
  process.stderr.write(`bench child: unknown mode ${String(mode)}\n`);
  process.exit(2);
}
run.catch((error: unknown) => {
  process.stderr.write(`bench child ${String(mode)}: ${(error as Error).message}\n`);
  process.exit(1);
});
