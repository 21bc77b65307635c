// The harness judges what an answer means, not how it is written or carried. A proxy in front of the simulator
// rewrites each answer into an equivalent one, and the whole suite must judge every case as it does through the
// proxy unchanged. The rewrites are ones real servers make:
// - JSON pretty-printed, every character outside printable ASCII (and every "e") written as a \u escape, a
//   trailing newline, members the spec does not list added to the envelope, the body sent chunked;
// - the body compressed (gzip, deflate, br in turn, as the request's Accept-Encoding allows), every connection
//   closed after its answer.
// A harness that compared raw text, took an escape for a difference, or lost an answer to its coding or transport
// would accuse a conforming target.
import { expect } from 'chai';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { defaults } from '../src/config/profile.js';
import { runConformance } from '../src/engine/run.js';
import { SELFCHECK_EXPLORE_BUDGET, caseOutcome, outcomeDifferences, type CaseOutcome } from '../src/selfcheck/index.js';
import { startSimulator } from '../simulator/index.js';
import { listenOnLoopback, type LoopbackServer } from './support/loopback.js';

type Rewrite = 'unchanged' | 'text' | 'transport' | 'big-ids';

/** A JSON text with every string character outside printable ASCII, and every "e", as a \u escape. */
function escapedJson(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (typeof value === 'string') {
    let out = '"';
    for (const ch of value) {
      if (ch === '"' || ch === '\\') out += `\\${ch}`;
      else if (ch === 'e' || !/^[\x20-\x7e]$/.test(ch)) {
        for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
      } else out += ch;
    }
    return `${out}"`;
  }
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => inner + escapedJson(v, inner)).join(',\n')}\n${indent}]`;
  if (value && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${inner}${escapedJson(k)}: ${escapedJson(v, inner)}`);
    return members.length === 0 ? '{}' : `{\n${members.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const CODINGS = [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const;

/** The answer's headers and body as the rewrite sends them, and whether the body goes chunked. */
interface Rewritten {
  headers: IncomingHttpHeaders;
  body: Buffer;
  chunked: boolean;
}

function rewrite(how: Rewrite, n: number, req: IncomingMessage, headers: IncomingHttpHeaders, body: Buffer): Rewritten {
  const out: IncomingHttpHeaders = { ...headers };
  delete out['content-length'];
  delete out['transfer-encoding'];
  if (how === 'text' && /json/.test(String(headers['content-type'])) && body.length > 0) {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    const envelope = value && typeof value === 'object' && !Array.isArray(value) && 'message' in value;
    const written = envelope ? { ...value, status: 'done', request_id: `r-${n}` } : value;
    return { headers: out, body: Buffer.from(`${escapedJson(written)}\n`, 'utf8'), chunked: true };
  }
  if (how === 'big-ids' && /json/.test(String(headers['content-type']))) {
    // Not an equivalent answer: ids beyond 2^53 (a 64-bit id scheme), which JSON.parse cannot read exactly.
    return { headers: out, body: Buffer.from(body.toString('utf8').replace(/"id":(\d+)/g, (_, id: string) => `"id":${BigInt(id) + 2n ** 60n}`)), chunked: false };
  }
  if (how === 'transport') {
    out['connection'] = 'close';
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const [name, encode] = CODINGS[n % CODINGS.length] ?? CODINGS[0];
    if (body.length > 0 && accepted.includes(name)) {
      out['content-encoding'] = name;
      out['vary'] = 'accept-encoding';
      return { headers: out, body: encode(body), chunked: false };
    }
  }
  return { headers: out, body, chunked: false };
}

/** A proxy on a free loopback port that sends each request on to `upstream` and rewrites its answer. */
async function rewritingProxy(how: Rewrite): Promise<LoopbackServer & { upstream: { url: string } }> {
  const upstream = { url: '' };
  let answered = 0;
  const server = createServer((req, res) => {
    const n = answered++;
    const sent: Buffer[] = [];
    req.on('data', (chunk: Buffer) => sent.push(chunk));
    req.on('end', () => {
      const forward = httpRequest(`${upstream.url}${req.url ?? '/'}`, { method: req.method, headers: { ...req.headers, 'accept-encoding': 'identity' } }, (answer) => {
        const got: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => got.push(chunk));
        answer.on('end', () => {
          const { headers, body, chunked } = rewrite(how, n, req, answer.headers, Buffer.concat(got));
          res.writeHead(answer.statusCode ?? 502, chunked ? headers : { ...headers, 'content-length': String(body.length) });
          if (!chunked) return res.end(body);
          res.write(body.subarray(0, body.length >> 1));
          setImmediate(() => res.end(body.subarray(body.length >> 1)));
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(sent));
    });
  });
  return { ...(await listenOnLoopback(server)), upstream };
}

/** Every case's outcome, judged through the proxy with its rewrite, against a fresh simulator. */
async function outcomesThrough(how: Rewrite): Promise<{ outcomes: CaseOutcome[]; exchanges: number; reasons: Map<string, string> }> {
  const proxy = await rewritingProxy(how);
  // The links the simulator writes (meta.next_link) lead back through the proxy.
  const simulator = await startSimulator({ host: '127.0.0.1', port: 0, publicUrl: proxy.url, admin: false });
  proxy.upstream.url = simulator.baseUrl;
  try {
    const { clientId, clientSecret } = simulator.options;
    // What the embedded simulator gives a run on its own: an expired token and a job offer to read.
    const fixtures = { expiredToken: simulator.expiredToken(), atsJobOfferIds: simulator.atsJobOfferFixtureIds() };
    const { report } = await runConformance({
      profile: { ...defaults(), baseUrl: proxy.url, clientId, clientSecret, fixtures, allowIrreversible: true, explore: { ...SELFCHECK_EXPLORE_BUDGET } },
      reporter: 'none',
    });
    return {
      outcomes: report.cases.map(caseOutcome), exchanges: report.cases.reduce((n, c) => n + c.exchanges.length, 0),
      reasons: new Map(report.cases.map((c) => [c.id, c.reason ?? ''])),
    };
  } finally {
    await proxy.close();
    await simulator.close();
  }
}

describe('equivalent answers: the same verdicts however an answer is written or carried', function () {
  this.timeout(300_000);
  let unchanged: CaseOutcome[];

  before(async () => {
    unchanged = (await outcomesThrough('unchanged')).outcomes;
  });

  it('judges the simulator through the proxy unchanged with no failure: the rewrites are measured from a clean run', () => {
    expect(unchanged.filter((o) => o.verdict === 'fail' || o.verdict === 'error')).to.deep.equal([]);
    expect(unchanged.filter((o) => o.verdict === 'pass').length).to.be.greaterThan(200);
  });

  it('writes the rewritten JSON so that it parses to the same value', () => {
    const value = { message: 'Café "x" \\ é\u0001😀', data: [{ n: 1.5e3, ok: true, none: null, list: [] }], meta: {} };
    const text = escapedJson(value);
    expect(text).to.not.match(/[^\x20-\x7e\n]/);
    expect(text).to.include('"m\\u0065ssag\\u0065": "Caf\\u00e9 \\"x\\" \\\\ \\u00e9\\u0001\\ud83d\\ude00"');
    expect(JSON.parse(text)).to.deep.equal(value);
  });

  for (const how of ['text', 'transport'] as const) {
    it(`judges every case as through the proxy unchanged: ${how === 'text' ? 'escaped, pretty, chunked JSON with extra envelope members' : 'gzip, deflate and br bodies, connections closed'}`, async () => {
      const { outcomes, exchanges } = await outcomesThrough(how);
      expect(exchanges).to.be.greaterThan(500);
      const differences = outcomeDifferences({ label: 'unchanged', outcomes: unchanged }, { label: `rewritten (${how})`, outcomes });
      expect(differences, differences.join('\n')).to.deep.equal([]);
      expect(outcomes.map((o) => o.id)).to.deep.equal(unchanged.map((o) => o.id));
    });
  }

  it('accuses no target of ids beyond 2^53: a case that meets one is not judged, saying why, and the others as before', async () => {
    const { outcomes, reasons } = await outcomesThrough('big-ids');
    const before = new Map(unchanged.map((o) => [o.id, o]));
    const skipped = outcomes.filter((o) => o.verdict === 'skip' && /beyond ±\(2\^53 - 1\)/.test(reasons.get(o.id) ?? ''));
    expect(skipped.length).to.be.greaterThan(20);
    const others = outcomes.filter((o) => !skipped.includes(o));
    expect(others.filter((o) => JSON.stringify(o) !== JSON.stringify(before.get(o.id))).map((o) => `${o.id}: ${o.verdict} ${reasons.get(o.id) ?? ''}`)).to.deep.equal([]);
  });
});
