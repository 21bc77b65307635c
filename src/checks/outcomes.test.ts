// Outcomes are read from the body, never from the status alone ("Mapping of HTTP status codes to these bodies: not
// shown"): the batch oracle, the refusal check and the multi-value filter check, at several statuses each.
import { expect } from 'chai';
import { getCheck, type CheckContext } from './index.js';
import { batchVariant } from './batch.js';
import { outcomeOf, valuesAt } from './registry.js';
import type { Exchange } from '../core/results.js';
import { operation } from '../spec/index.js';

function answer(status: number, json: unknown, url = 'http://sim.test/ats/job-offers'): Exchange {
  return {
    step: 'step', request: { method: 'POST', url, headers: {} },
    response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json), json },
    startedAt: '2026-01-01T00:00:00Z', elapsedMs: 1,
  };
}

function run(
  checkId: string, exchange: Exchange, args: Record<string, unknown> = {}, requestBody?: unknown, invalid: object[] = [],
): { passed: boolean; inconclusive?: boolean; message: string }[] {
  const check = getCheck(checkId);
  if (!check) throw new Error(`${checkId} is not registered`);
  const invalidItems = new WeakSet<object>(invalid);
  const ctx: CheckContext = { exchange, stepExchanges: [exchange], invalidItems, args, declared: {}, requestBody };
  return check.run(ctx).map(({ passed, message, inconclusive }) => ({ passed, message, ...(inconclusive ? { inconclusive } : {}) }));
}

const error = { message: 'item 2: title is required', data: null };
const partial = { message: '1 created, 1 refused', data: [{ reference: 'A', title: 'x', publication_at: '2026-01-01T00:00:00Z' }], errors: [error] };

describe('outcomes read from the body', () => {
  it('reads an error body as a failure and records without errors as a success, whatever the status', () => {
    expect(outcomeOf(answer(200, { message: 'refused', errors: [error] }))).to.equal('failure');
    expect(outcomeOf(answer(400, { message: 'ok', data: [{ reference: 'A' }] }))).to.equal('success');
    expect(outcomeOf(answer(204, { message: 'deleted' }))).to.equal('success');
    expect(outcomeOf(answer(404, { message: 'gone', data: [] }))).to.equal('failure');
    expect(outcomeOf(answer(422, partial))).to.equal('failure');
  });

  it('tells the batch variant by shape alone', () => {
    for (const status of [200, 201, 207, 400, 422]) expect(batchVariant(answer(status, partial)), String(status)).to.deep.equal({ variant: 3 });
    expect(batchVariant(answer(200, { message: 'refused', errors: [error] }))).to.deep.equal({ variant: 4 });
    expect(batchVariant(answer(201, { message: 'created', errors: [] }))).to.have.property('none');
  });

  it('reads an envelope member sent as null as left out (NULL_ENVELOPE_MEMBER), and fails null where data must be', () => {
    expect(batchVariant(answer(400, { message: 'refused', data: null, errors: [error] }))).to.deep.equal({ variant: 4 });
    expect(batchVariant(answer(201, { message: 'created', data: null }))).to.deep.equal({ variant: 1 });
    expect(batchVariant(answer(201, { message: 'created', data: [{ id: 1 }], errors: null }))).to.deep.equal({ variant: 2 });
    expect(batchVariant(answer(201, { message: 'created', data: {} }))).to.have.property('none');
    // A 2xx error body is one with data: null beside it too; a read that must list records still needs an array.
    expect(run('status-matches-body', answer(200, { message: 'refused', data: null, errors: [error] }))).to.deep.include({ passed: false, message: 'status 200 with an error body ("refused")' });
    const dataIsArray = getCheck('data-is-array');
    const applies = (operationId: string, json: unknown): boolean | undefined => {
      const exchange = answer(201, json);
      const ctx: CheckContext = { exchange, stepExchanges: [exchange], invalidItems: new WeakSet(), args: {}, declared: {}, operation: operation(operationId) };
      return dataIsArray?.appliesTo?.(ctx);
    };
    expect(applies('batchCreateJobOffers', { message: 'created', data: null })).to.equal(false);
    expect(applies('listJobOffers', { message: 'ok', data: null })).to.equal(true);
    expect(run('data-is-array', answer(200, { message: 'ok', data: null, meta: { next_link: null } })).map((j) => j.passed)).to.deep.equal([false]);
  });

  it('passes a partial success body with any status, and fails an all-or-nothing refusal saying so', () => {
    for (const status of [200, 201, 207, 400, 422]) expect(run('partial-success', answer(status, partial))[0]?.passed, String(status)).to.equal(true);
    const [refused] = run('partial-success', answer(400, { message: 'refused', errors: [error] }));
    expect(refused?.passed).to.equal(false);
    expect(refused?.message).to.match(/errors but no data/).and.match(/all-or-nothing/);
  });

  it('lists data against what was sent at any status', () => {
    const good = { reference: 'A', title: 'x', publication_at: '2026-01-01T00:00:00Z' };
    const bad = { reference: 'B', publication_at: '2026-01-01T00:00:00Z' };
    const ex = answer(422, { ...partial, data: [good, bad] });
    const op = { operationId: 'batchCreateJobOffers', resource: 'job-offer' };
    const check = getCheck('not-created');
    const judged = check?.run({ exchange: ex, stepExchanges: [ex], invalidItems: new WeakSet([bad]), args: {}, declared: {}, requestBody: [good, bad], operation: op as CheckContext['operation'] & object });
    expect(judged?.[0]?.passed, 'an invalid item listed as created under a 422 is still listed').to.equal(false);
  });

  it('reads a refusal of a token or a request from the body: a 200 error body refuses, a 400 with records does not', () => {
    expect(run('refused', answer(200, { message: 'invalid_client', errors: [error] }))[0]?.passed).to.equal(true);
    expect(run('refused', answer(400, { message: 'ok', data: [{ reference: 'A' }] }))[0]?.passed).to.equal(false);
    expect(run('refused', answer(200, { access_token: 'x', token_type: 'Bearer', expires_in: 60 }))[0]?.passed).to.equal(false);
  });

  it('reads values at a path with * for array items', () => {
    expect(valuesAt({ attributes: [{ name: 'a' }, { name: 'b' }] }, 'attributes.*.name')).to.deep.equal(['a', 'b']);
    expect(valuesAt({ reference: 'R' }, 'reference')).to.deep.equal(['R']);
  });
});

describe('several-references', () => {
  const list = (status: number, refs: string[], search: string): Exchange =>
    answer(status, { message: 'ok', data: refs.map((reference) => ({ reference })), meta: { next_link: null } }, `http://sim.test/ats/job-offers?${search}`);
  const args = { field: 'reference', values: ['A', 'B'] };

  it('passes the records of every reference and no other', () => {
    expect(run('several-references', list(200, ['A', 'B'], 'reference=A&reference=B'), args)[0]?.passed).to.equal(true);
  });

  it('fails, conclusively, a 2xx with the records of some references only', () => {
    const [j] = run('several-references', list(200, ['A'], 'reference=A&reference=B'), args);
    expect(j?.passed).to.equal(false);
    expect(j?.inconclusive).to.equal(undefined);
  });

  it('is inconclusive on an encoding not understood: refused, read as one value, or ignored', () => {
    expect(run('several-references', answer(400, { message: 'bad', errors: [error] }), args)[0]?.inconclusive).to.equal(true);
    expect(run('several-references', list(200, [], 'reference=A%2CB'), args)[0]?.inconclusive).to.equal(true);
    expect(run('several-references', list(200, ['A', 'B', 'C'], 'reference%5B%5D=A'), args)[0]?.inconclusive).to.equal(true);
  });
});
