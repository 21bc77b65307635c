import { expect } from 'chai';
import { getCheck, type CheckContext } from './index.js';
import type { Exchange } from '../core/results.js';

/** A page of a walk: its status and body, as the runner records it. */
function page(status: number, json: unknown, url = 'http://sim.test/jobboard/activities'): Exchange {
  return {
    step: 'walk', request: { method: 'GET', url, headers: {} },
    response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), json },
    startedAt: '2026-01-01T00:00:00Z', elapsedMs: 1,
  };
}

function walkExactlyOnce(pages: Exchange[]): { passed: boolean; message: string }[] {
  const check = getCheck('walk-exactly-once');
  if (!check) throw new Error('walk-exactly-once is not registered');
  const ctx: CheckContext = {
    exchange: pages[0] as Exchange, stepExchanges: pages, invalidItems: new WeakSet(), args: { field: 'id' }, declared: {},
  };
  return check.run(ctx).map(({ passed, message }) => ({ passed, message }));
}

describe('walk-exactly-once', () => {
  it('passes a walk that ends with next_link null, each record once', () => {
    const judged = walkExactlyOnce([
      page(200, { message: 'ok', data: [{ id: 1 }, { id: 2 }], meta: { next_link: 'http://sim.test/jobboard/activities?cursor=2' } }),
      page(200, { message: 'ok', data: [{ id: 3 }], meta: { next_link: null } }),
    ]);
    expect(judged).to.have.length(1);
    expect(judged[0]?.passed).to.equal(true);
  });

  it('fails a walk whose next_link leads to an error page, saying so', () => {
    const judged = walkExactlyOnce([
      page(200, { message: 'ok', data: [{ id: 1 }], meta: { next_link: 'http://sim.test/jobboard/activities?cursor=stale' } }),
      page(400, { message: 'Bad cursor', errors: [{ message: 'Bad cursor', data: null }] }),
    ]);
    expect(judged[0]?.passed).to.equal(false);
    expect(judged[0]?.message).to.match(/led to status 400/).and.not.match(/did not end/);
  });

  it('judges nothing when the first page itself failed: there is no walk, so no end to miss', () => {
    expect(walkExactlyOnce([page(400, { message: 'Bad filter', errors: [{ message: 'Bad filter', data: null }] })])).to.deep.equal([]);
  });
});
