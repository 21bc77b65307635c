import { expect } from 'chai';
import { getCheck, type CheckContext } from './index.js';
import { operation, schemaErrors } from '../spec/index.js';
import type { Exchange } from '../core/results.js';

function recordSchema(data: unknown[]): { passed: boolean; message: string }[] {
  const check = getCheck('record-schema');
  if (!check) throw new Error('record-schema is not registered');
  const json = { message: 'ok', data };
  const exchange: Exchange = {
    step: 'list', request: { method: 'GET', url: 'http://sim.test/ats/job-offers', headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), json },
    startedAt: '2026-01-01T00:00:00Z', elapsedMs: 1,
  };
  const ctx: CheckContext = { exchange, stepExchanges: [exchange], invalidItems: new WeakSet(), args: {}, declared: {}, operation: operation('listJobOffers') };
  return check.run(ctx).map(({ passed, message }) => ({ passed, message }));
}

describe('record-schema', () => {
  it('counts every problem of a page and quotes the first six, in the order the schema errors come', () => {
    const op = operation('listJobOffers');
    const data = [{ title: 42 }, ...Array.from({ length: 3_000 }, () => ({})), 'not a record'];
    const every = data.flatMap((r, i) => schemaErrors(op.recordSchema as string, r).map((e) => `data[${i}]${e.replace('(body)', '')}`));
    expect(every.length).to.be.above(6_000);
    expect(recordSchema(data)).to.deep.equal([{ passed: false, message: `${every.length} problem(s): ${every.slice(0, 6).join('; ')}` }]);
    // The last record's problem is counted though not quoted.
    expect(recordSchema(data.slice(0, -1))[0]?.message).to.match(new RegExp(`^${every.length - schemaErrors(op.recordSchema as string, 'x').length} problem`));
  });
});
