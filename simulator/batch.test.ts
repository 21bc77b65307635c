import { expect } from 'chai';
import { applicationStep, createFaker, jobOffer, jobOfferAttribute, jobboardActivity, jobboardJobOffer } from '../src/data/factories.js';
import { items, startTest, type Harness, type Item } from '../test/support/simulator.js';

const faker = createFaker(42);
let serial = 0;
const unique = (prefix: string): string => `${prefix}-batch-${++serial}`;

interface BatchCase {
  path: string;
  valid: () => Item;
  /** A field whose absence makes an item invalid. */
  required: string;
  hasId: boolean;
}

const CASES: BatchCase[] = [
  { path: '/ats/job-offers', valid: () => ({ ...jobOffer(faker, { reference: unique('JO') }) }), required: 'publication_at', hasId: false },
  { path: '/ats/job-offers/JO-2026-000001/attributes', valid: () => ({ ...jobOfferAttribute(faker, { name: unique('attr') }) }), required: 'value', hasId: false },
  { path: '/ats/application-steps', valid: () => ({ ...applicationStep(faker) }), required: 'recorded_at', hasId: true },
  { path: '/jobboard/activities', valid: () => ({ ...jobboardActivity(faker) }), required: 'count', hasId: true },
  { path: '/jobboard/job-offers', valid: () => ({ ...jobboardJobOffer(faker) }), required: 'reference', hasId: true },
];

function without(item: Item, field: string): Item {
  const copy = { ...item };
  delete copy[field];
  return copy;
}

describe('simulator: batch creation', () => {
  let t: Harness;
  before(async () => {
    t = await startTest();
  });
  after(() => t.close());

  for (const c of CASES) {
    describe(`POST ${c.path}`, () => {
      it('creates every valid item: 201 with {message, data}', async () => {
        const sent = [c.valid(), c.valid(), c.valid()];
        const res = await t.client.post(c.path, sent);
        expect(res.status).to.equal(201);
        expect(Object.keys(res.body).sort()).to.deep.equal(['data', 'message']);
        const data = items(res);
        expect(data).to.have.length(3);
        data.forEach((record, i) => {
          expect(record).to.deep.include(sent[i] as Item);
          if (c.hasId) expect(record['id']).to.be.a('number');
          else expect(record).not.to.have.property('id');
        });
        if (c.hasId) expect(new Set(data.map((r) => r['id'])).size).to.equal(3);
      });

      it('creates the valid items of a mixed batch: 207 with data and one error per invalid item', async () => {
        const res = await t.client.post(c.path, [c.valid(), without(c.valid(), c.required), c.valid(), { ...c.valid(), colour: 'red' }]);
        expect(res.status).to.equal(207);
        expect(items(res)).to.have.length(2);
        expect(res.body.errors).to.deep.equal([
          { message: `item 1: ${c.required} is required`, data: null },
          { message: 'item 3: unknown field colour', data: null },
        ]);
      });

      it('answers the error body (400) when no item is valid, and stores none', async () => {
        const before = JSON.stringify(t.store.counts());
        const res = await t.client.post(c.path, [without(c.valid(), c.required), 'not an object']);
        expect(res.status).to.equal(400);
        expect(res.body).not.to.have.property('data');
        expect(res.body.errors).to.have.length(2);
        expect(res.body.errors?.[1]?.message).to.match(/^item 1: /);
        expect(JSON.stringify(t.store.counts())).to.equal(before);
      });

      it('answers an empty array with an empty success (200)', async () => {
        const res = await t.client.post(c.path, []);
        expect(res.status).to.equal(200);
        expect(res.body.data).to.deep.equal([]);
      });

      it('refuses a body that is not an array (400)', async () => {
        const res = await t.client.post(c.path, c.valid());
        expect(res.status).to.equal(400);
        expect(res.body.message).to.include('array');
      });
    });
  }

  it('refuses a second job offer with a reference already taken, in the store or earlier in the batch', async () => {
    const first = jobOffer(faker, { reference: unique('JO') });
    expect((await t.client.post('/ats/job-offers', [first])).status).to.equal(201);
    const again = jobOffer(faker, { reference: first.reference });
    const twin = jobOffer(faker, { reference: unique('JO') });
    const res = await t.client.post('/ats/job-offers', [again, twin, { ...twin }]);
    expect(res.status).to.equal(207);
    expect(items(res).map((r) => r['reference'])).to.deep.equal([twin.reference]);
    expect(res.body.errors?.map((e) => e.message)).to.deep.equal([
      `item 0: a job offer with the reference ${JSON.stringify(first.reference)} already exists`,
      `item 2: a job offer with the reference ${JSON.stringify(twin.reference)} already exists`,
    ]);
  });

  it('refuses an attribute under a name the job offer already has, keeping the old value', async () => {
    const reference = unique('JO');
    await t.client.post('/ats/job-offers', [jobOffer(faker, { reference, attributes: [{ name: 'contract_type', value: 'permanent' }] })]);
    const res = await t.client.post(`/ats/job-offers/${reference}/attributes`, [
      { name: 'contract_type', value: 'freelance' }, { name: 'work_mode', value: 'remote' },
    ]);
    expect(res.status).to.equal(207);
    expect(res.body.errors?.[0]?.message).to.equal('item 0: the attribute "contract_type" already exists on this job offer');
    const offer = items(await t.client.get(`/ats/job-offers/${reference}`))[0];
    expect(offer?.['attributes']).to.deep.equal([{ name: 'contract_type', value: 'permanent' }, { name: 'work_mode', value: 'remote' }]);
  });

  it('answers 404 for attributes of a job offer that does not exist', async () => {
    const res = await t.client.post('/ats/job-offers/JO-NOPE/attributes', [{ name: 'a', value: 'b' }]);
    expect(res.status).to.equal(404);
    expect(res.body.errors).to.be.an('array');
  });

  it('checks the date formats the schemas annotate', async () => {
    const res = await t.client.post('/jobboard/activities', [
      jobboardActivity(faker, { recorded_at: '2026-03-02' }),
      jobboardActivity(faker, { recorded_at: '2026-03-02T10:00:00Z' }),
      jobboardActivity(faker, { recorded_at: 'yesterday' }),
      jobboardActivity(faker, { recorded_at: '2026-02-30' }),
    ]);
    expect(res.status).to.equal(207);
    expect(res.body.errors?.map((e) => e.message)).to.deep.equal([
      'item 2: recorded_at must be an ISO 8601 date (YYYY-MM-DD) or date-time',
      'item 3: recorded_at must be an ISO 8601 date (YYYY-MM-DD) or date-time',
    ]);
    const steps = await t.client.post('/ats/application-steps', [applicationStep(faker, { recorded_at: '2026-03-02' })]);
    expect(steps.status).to.equal(400);
    expect(steps.body.errors?.[0]?.message).to.include('date-time');
  });

  it('treats null in an optional field as absent', async () => {
    const res = await t.client.post('/ats/application-steps', [applicationStep(faker, { source: null, candidate_mail: null })]);
    expect(res.status).to.equal(201);
    const record = items(res)[0] as Item;
    expect(record).not.to.have.property('source');
    expect(record).not.to.have.property('candidate_mail');
  });
});
