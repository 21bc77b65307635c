import { expect } from 'chai';
import { CaseRun, type RunServices } from './case-run.js';
import type { CaseDef } from './suite.js';
import type { Exchange } from '../core/results.js';

type Store = (list: Exchange[], from: number, to?: number) => Promise<number>;

/** A case run over a report budget that only says what it was asked to store. */
function caseRun(store: Store): CaseRun {
  const services = {
    credentials: { clientId: 'id', clientSecret: 'secret' }, profile: { declared: {}, fixtures: {} }, gen: { runTag: 'rdxtest' }, budget: { store },
  } as unknown as RunServices;
  return new CaseRun({ id: 'case', steps: [] } as unknown as CaseDef, services);
}

const exchange = (step: string): Exchange => ({ step, request: { method: 'GET', url: 'http://127.0.0.1:9/', headers: {} }, startedAt: '', elapsedMs: 0 });

describe('CaseRun storing', () => {
  it('stores what was judged once the next request is dispatched, not before it and not what came after, and the rest at the end', async () => {
    const asked: [number, number][] = [];
    const run = caseRun(async (list, from, to = list.length) => {
      asked.push([from, to]);
      return to;
    });
    run.result.exchanges.push(exchange('first'), exchange('first, page 2'));
    run.judged();
    run.requestDispatched();
    // Dispatched again (a retry, a throttled answer waited out): nothing more to store.
    run.requestDispatched();
    run.result.exchanges.push(exchange('second'));
    expect(asked, 'stored before the request was written').to.deep.equal([]);
    await run.storeAll();
    expect(asked).to.deep.equal([[0, 2], [2, 3]]);
    // All stored: the end stores nothing twice.
    await run.storeAll();
    expect(asked.at(-1)).to.deep.equal([3, 3]);
  });

  it('fails storeAll with the error of a store put off, and leaves no unhandled rejection meanwhile', async () => {
    const run = caseRun(async () => {
      throw new Error('more than 4096 secrets to mask');
    });
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', note);
    run.result.exchanges.push(exchange('first'));
    run.judged();
    run.requestDispatched();
    // Turns of the event loop pass before the case ends.
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', note);
    expect(unhandled).to.deep.equal([]);
    let failed: unknown;
    await run.storeAll().catch((error: unknown) => {
      failed = error;
    });
    expect((failed as Error | undefined)?.message).to.equal('more than 4096 secrets to mask');
  });
});
