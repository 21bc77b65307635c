import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { UsageError } from '../src/errors.js';
import { Chaos, chaosSettings, delay, describeChaos, parseLatency, type ChaosDecision } from './chaos.js';
import type { JournalEntry } from './journal.js';
import { Client, items, runSimulate, startTest } from '../test/support/simulator.js';


function decisions(chaos: Chaos, requests: [string, string][]): (ChaosDecision | undefined)[] {
  return requests.map(([method, path]) => chaos.decide(method, path));
}

const SEQUENCE: [string, string][] = Array.from({ length: 200 }, (_, i) => [
  i % 3 === 0 ? 'POST' : 'GET', i % 2 === 0 ? '/ats/job-offers' : `/ats/job-offers/JO-2026-${String(i).padStart(6, '0')}`,
]);

describe('simulator: latency and chaos', () => {
  describe('latency rules', () => {
    it('reads milliseconds, ranges and endpoints', () => {
      expect(parseLatency('50')).to.include({ method: undefined, path: undefined, minMs: 50, maxMs: 50 });
      expect(parseLatency(' 20-80 ')).to.include({ minMs: 20, maxMs: 80, text: '20-80' });
      expect(parseLatency('GET /ats/job-offers=50')).to.include({ method: 'GET', path: '/ats/job-offers', minMs: 50, maxMs: 50 });
      expect(parseLatency('patch /ats/job-offers/{id}=5-10')).to.include({ method: 'PATCH', path: '/ats/job-offers/{id}', minMs: 5, maxMs: 10 });
      expect(parseLatency('/ats/job-offers/JO-1=7')).to.include({ method: undefined, path: '/ats/job-offers/JO-1', minMs: 7 });
    });

    it('refuses what it cannot read, naming the rule', () => {
      for (const bad of ['fast', '80-20', 'GET /nowhere=5', 'FETCH /ats/job-offers=5', 'DELETE /users=5', '70000', '-5', 'GET=5']) {
        expect(() => parseLatency(bad), bad).to.throw(UsageError, /latency/);
      }
      expect(() => parseLatency('GET /nowhere=5')).to.throw(/the paths are .*\/ats\/job-offers/);
    });

    it('checks rates and takes the data seed when no chaos seed is given', () => {
      expect(() => chaosSettings({ errorRate: 1.5 }, 1)).to.throw(UsageError, /error rate must be a fraction/);
      expect(() => chaosSettings({ dropRate: -0.1 }, 1)).to.throw(UsageError, /drop rate/);
      expect(() => chaosSettings({ errorRate: 0.6, dropRate: 0.6 }, 1)).to.throw(UsageError, /together/);
      expect(chaosSettings({}, 7).seed).to.equal(7);
      expect(chaosSettings({ seed: 3 }, 7).seed).to.equal(3);
      expect(describeChaos(chaosSettings({}, 1))).to.equal('off');
      expect(describeChaos(chaosSettings({ latency: ['20-80'], errorRate: 0.05 }, 2))).to.equal('latency 20-80 ms; 5% answered 503; seed 2');
    });
  });

  describe('decisions', () => {
    const settings = chaosSettings({ latency: ['GET /ats/job-offers=50', '1-9'], errorRate: 0.2, dropRate: 0.1 }, 11);

    it('are the same for the same seed and the same request sequence', () => {
      const first = decisions(new Chaos(settings), SEQUENCE);
      expect(decisions(new Chaos(settings), SEQUENCE)).to.deep.equal(first);
      const other = decisions(new Chaos({ ...settings, seed: 12 }), SEQUENCE);
      expect(other).to.not.deep.equal(first);
    });

    it('start again after configure() and rewind()', () => {
      const chaos = new Chaos(settings);
      const first = decisions(chaos, SEQUENCE);
      chaos.rewind();
      expect(decisions(chaos, SEQUENCE)).to.deep.equal(first);
      chaos.configure(settings);
      expect(decisions(chaos, SEQUENCE)).to.deep.equal(first);
    });

    it('answer the configured shares of requests with errors and drops', () => {
      const chaos = new Chaos(settings);
      const all = Array.from({ length: 20_000 }, () => chaos.decide('GET', '/users'));
      const share = (fault: string): number => all.filter((d) => d?.fault === fault).length / all.length;
      expect(share('error')).to.be.within(0.18, 0.22);
      expect(share('drop')).to.be.within(0.085, 0.115);
    });

    it('take the latency of the first matching endpoint rule, else the rule for every request', () => {
      const chaos = new Chaos(settings);
      for (let i = 0; i < 50; i++) {
        expect(chaos.decide('GET', '/ats/job-offers')?.delayMs).to.equal(50);
        expect(chaos.decide('POST', '/ats/job-offers')?.delayMs).to.be.within(1, 9);
        expect(chaos.decide('GET', '/ats/job-offers/JO-1')?.delayMs).to.be.within(1, 9);
      }
    });

    it('are none at all when chaos is off', () => {
      expect(new Chaos(chaosSettings({}, 1)).decide('GET', '/users')).to.equal(undefined);
    });

    it('wait no longer than the request lives', async () => {
      const request = new EventEmitter();
      const waiting = delay(600_000, request);
      request.emit('close');
      await waiting;
      expect(request.listenerCount('close')).to.equal(0);
    });
  });

  describe('in the simulator', () => {
    it('answers 503 with the error body and Retry-After, journals it, and leaves /__admin/ alone', async () => {
      const t = await startTest({ errorRate: 1 }, false);
      try {
        const res = await t.client.get('/ats/job-offers');
        expect(res.status).to.equal(503);
        expect(res.headers['retry-after']).to.equal('1');
        expect(res.headers['content-type']).to.equal('application/json');
        expect(res.body.message).to.be.a('string');
        expect(res.body.errors).to.deep.equal([{ message: res.body.message, data: null }]);
        const admin = new Client(t.sim.adminUrl?.replace(/\/$/, '') ?? '');
        expect((await admin.get('/health')).status).to.equal(200);
        expect((await admin.get('/api/state')).status).to.equal(200);
        const journal = items(await admin.get('/journal')) as unknown as JournalEntry[];
        expect(journal.map((e) => [e.path, e.status])).to.deep.equal([['/ats/job-offers', 503]]);
        await admin.close();
      } finally {
        await t.close();
      }
    });

    it('closes the connection without an answer, and journals it as status 0', async () => {
      const t = await startTest({ dropRate: 1 }, false);
      try {
        let failure: unknown;
        await t.client.get('/ats/job-offers').catch((error: unknown) => {
          failure = error;
        });
        // The socket closed with no answer: not a timeout, nor any other failure of the test's own making.
        expect(failure, 'no answer expected').to.be.instanceOf(Error).with.property('code', 'UND_ERR_SOCKET');
        expect(t.journal.entries().map((e) => e.status)).to.deep.equal([0]);
      } finally {
        await t.close();
      }
    });

    it('repeats its decisions for the same chaos seed and request sequence, and again after a reset', async () => {
      const statuses = async (chaosSeed: number): Promise<{ first: number[]; again: number[] }> => {
        const t = await startTest({ errorRate: 0.5, chaosSeed }, false);
        const run = async (): Promise<number[]> => {
          const out: number[] = [];
          for (let i = 0; i < 24; i++) out.push((await t.client.get(`/ats/job-offers?reference=R${i}`)).status);
          return out;
        };
        try {
          const first = await run();
          await t.sim.reset();
          return { first, again: await run() };
        } finally {
          await t.close();
        }
      };
      const a = await statuses(42);
      expect(a.first).to.include(503).and.to.include(401);
      expect(a.again).to.deep.equal(a.first);
      expect((await statuses(42)).first).to.deep.equal(a.first);
      expect((await statuses(43)).first).to.not.deep.equal(a.first);
    });
  });

  describe('rdx simulate flags', () => {
    // Small and on a free port: these tests only look at the flags. `used` counts the times `use` ran to its end, so
    // a simulator that exits before it starts cannot pass by skipping the assertions inside `use`.
    const simulate = async (args: string[], use: (out: string) => Promise<void>): Promise<{ code: number | null; out: string; used: number }> => {
      let used = 0;
      const result = await runSimulate(['--port', '0', '--records', '10', ...args], {}, async (out) => {
        await use(out);
        used++;
      });
      return { ...result, used };
    };

    it('takes --latency, --error-rate and --chaos-seed, and prints where the dashboard is', async () => {
      const result = await simulate(['--latency', 'GET /ats/job-offers=1', '--latency', '0-2', '--error-rate', '1', '--chaos-seed', '5'], async (out) => {
        const baseUrl = /listening on (\S+)/.exec(out)?.[1] ?? '';
        expect(out).to.include(`dashboard:     ${baseUrl}/__admin/`);
        expect(out).to.include('chaos:         latency GET /ats/job-offers=1, 0-2 ms; 100% answered 503; seed 5');
        const client = new Client(baseUrl);
        expect((await client.get('/ats/job-offers')).status).to.equal(503);
        const page = await client.get('/__admin/');
        expect(page.status).to.equal(200);
        await client.close();
      });
      expect(result.code, result.out).to.equal(0);
      expect(result.used, 'the assertions on the running simulator ran').to.equal(1);
    });

    it('refuses a latency it cannot read (exit 2), and --no-admin prints no dashboard', async () => {
      const bad = await simulate(['--latency', 'soon'], async () => undefined);
      expect(bad.code).to.equal(2);
      expect(bad.used, 'a refused flag never starts the simulator').to.equal(0);
      expect(bad.out).to.match(/latency "soon" is not understood/);
      const off = await simulate(['--no-admin'], async (out) => {
        const client = new Client(/listening on (\S+)/.exec(out)?.[1] ?? '');
        expect((await client.get('/__admin/')).status).to.equal(404);
        await client.close();
      });
      expect(off.code).to.equal(0);
      expect(off.used, 'the assertion on the running simulator ran').to.equal(1);
      expect(off.out).to.include('admin:         off');
      expect(off.out).to.not.include('dashboard:');
    });
  });
});
