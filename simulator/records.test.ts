import { expect } from 'chai';
import { applicationStep, createFaker, jobOffer, jobboardActivity, jobboardJobOffer, user } from '../src/data/factories.js';
import { items, startTest, type Harness, type Item } from '../test/support/simulator.js';

const faker = createFaker(7);

describe('simulator: reading, replacing, patching and deleting records', () => {
  let t: Harness;
  before(async () => {
    t = await startTest();
  });
  after(() => t.close());

  describe('ATS job offers (by URL-encoded reference)', () => {
    const reference = 'JO/2026 #1';
    const path = `/ats/job-offers/${encodeURIComponent(reference)}`;
    const original = jobOffer(faker, { reference, reference_2: 'REQ-1', description: 'Full description' });
    before(async () => {
      expect((await t.client.post('/ats/job-offers', [original])).status).to.equal(201);
    });

    it('reads one job offer, in an array, without id', async () => {
      const res = await t.client.get(path);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([original]);
    });

    it('answers 404 with the error body for an unknown reference', async () => {
      const res = await t.client.get('/ats/job-offers/JO-UNKNOWN');
      expect(res.status).to.equal(404);
      expect(res.body.errors?.[0]).to.deep.equal({ message: 'No job offer with reference "JO-UNKNOWN".', data: null });
    });

    it('refuses a PUT missing a required field and leaves the record unchanged', async () => {
      const before = items(await t.client.get(path));
      const res = await t.client.put(path, { title: 'Only a title', reference });
      expect(res.status).to.equal(400);
      expect(res.body.errors?.map((e) => e.message)).to.deep.equal(['publication_at is required']);
      expect(items(await t.client.get(path))).to.deep.equal(before);
    });

    it('refuses a PATCH with a field of the wrong type and leaves the record unchanged', async () => {
      const before = items(await t.client.get(path));
      const res = await t.client.patch(path, { title: 12 });
      expect(res.status).to.equal(400);
      expect(items(await t.client.get(path))).to.deep.equal(before);
    });

    it('PATCH changes only the fields it carries, and accepts {}', async () => {
      const res = await t.client.patch(path, { title: 'Head Nurse' });
      expect(res.status).to.equal(200);
      expect(items(res)).to.deep.equal([{ ...original, title: 'Head Nurse' }]);
      const empty = await t.client.patch(path, {});
      expect(empty.status).to.equal(200);
      expect(items(await t.client.get(path))).to.deep.equal([{ ...original, title: 'Head Nurse' }]);
    });

    it('PUT replaces the whole record: optional fields left out are gone', async () => {
      const next = { publication_at: '2026-04-01T08:00:00Z', title: 'Charge Nurse', reference };
      const res = await t.client.put(path, next);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([next]);
      expect(items(await t.client.get(path))).to.deep.equal([next]);
    });

    it('PUT may change the reference, but not to one another job offer has (409)', async () => {
      const other = jobOffer(faker, { reference: 'JO-OTHER-1' });
      await t.client.post('/ats/job-offers', [other]);
      const clash = await t.client.put(path, { ...original, reference: other.reference });
      expect(clash.status).to.equal(409);
      expect(clash.body.errors).to.be.an('array');
      const moved = await t.client.put('/ats/job-offers/JO-OTHER-1', { ...other, reference: 'JO-OTHER-2' });
      expect(moved.status).to.equal(200);
      expect((await t.client.get('/ats/job-offers/JO-OTHER-1')).status).to.equal(404);
      expect((await t.client.get('/ats/job-offers/JO-OTHER-2')).status).to.equal(200);
    });

    it('PATCH and PUT of an unknown job offer answer 404', async () => {
      expect((await t.client.patch('/ats/job-offers/JO-NONE', {})).status).to.equal(404);
      expect((await t.client.put('/ats/job-offers/JO-NONE', jobOffer(faker, { reference: 'JO-NONE' }))).status).to.equal(404);
    });
  });

  describe('job offer attributes', () => {
    const reference = 'JO-ATTR-1';
    const path = `/ats/job-offers/${reference}/attributes`;
    before(async () => {
      await t.client.post('/ats/job-offers', [jobOffer(faker, { reference, attributes: undefined })]);
      expect((await t.client.post(path, [{ name: 'work_mode', value: 'hybrid' }, { name: 'city', value: 'Lyon' }])).status).to.equal(201);
    });

    it('PATCH sets the value and answers items carrying only value', async () => {
      const res = await t.client.patch(`${path}/work_mode`, { value: 'remote' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([{ value: 'remote' }]);
      const offer = items(await t.client.get(`/ats/job-offers/${reference}`))[0] as Item;
      expect(offer['attributes']).to.deep.equal([{ name: 'work_mode', value: 'remote' }, { name: 'city', value: 'Lyon' }]);
    });

    it('PATCH without value is refused', async () => {
      const res = await t.client.patch(`${path}/work_mode`, {});
      expect(res.status).to.equal(400);
      expect(res.body.errors?.[0]?.message).to.equal('value is required');
    });

    it('DELETE answers {message}; the attribute is gone and a later update fails', async () => {
      const res = await t.client.delete(`${path}/city`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ message: 'Attribute deleted.' });
      expect((await t.client.patch(`${path}/city`, { value: 'Paris' })).status).to.equal(404);
      expect((await t.client.delete(`${path}/city`)).status).to.equal(404);
    });
  });

  describe('application steps (by numeric id)', () => {
    let id = 0;
    const original = applicationStep(faker);
    before(async () => {
      id = items(await t.client.post('/ats/application-steps', [original]))[0]?.['id'] as number;
    });

    it('reads one step with its id', async () => {
      const res = await t.client.get(`/ats/application-steps/${id}`);
      expect(res.body.data).to.deep.equal([{ id, ...original }]);
    });

    it('PATCH answers the step with its id', async () => {
      const res = await t.client.patch(`/ats/application-steps/${id}`, { step: 'interview' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([{ id, ...original, step: 'interview' }]);
    });

    it('PUT replaces; a PUT missing a required field changes nothing', async () => {
      const next = applicationStep(faker, { source: undefined });
      expect((await t.client.put(`/ats/application-steps/${id}`, next)).body.data).to.deep.equal([{ id, ...next }]);
      const refused = await t.client.put(`/ats/application-steps/${id}`, { ...next, step: undefined });
      expect(refused.status).to.equal(400);
      expect(items(await t.client.get(`/ats/application-steps/${id}`))).to.deep.equal([{ id, ...next }]);
    });

    it('answers 404 for an unknown or non-numeric id', async () => {
      for (const bad of ['999999', 'abc', '0', '1.5']) {
        const res = await t.client.get(`/ats/application-steps/${bad}`);
        expect(res.status, bad).to.equal(404);
        expect(res.body.errors, bad).to.be.an('array');
      }
    });
  });

  describe('jobboard activities', () => {
    let id = 0;
    const original = jobboardActivity(faker);
    before(async () => {
      id = items(await t.client.post('/jobboard/activities', [original]))[0]?.['id'] as number;
    });

    it('PUT replaces and PATCH merges', async () => {
      const next = jobboardActivity(faker);
      expect((await t.client.put(`/jobboard/activities/${id}`, next)).body.data).to.deep.equal([{ id, ...next }]);
      const patched = await t.client.patch(`/jobboard/activities/${id}`, { count: 99 });
      expect(patched.body.data).to.deep.equal([{ id, ...next, count: 99 }]);
    });

    it('refuses a count sent as a string and keeps the stored one', async () => {
      const res = await t.client.patch(`/jobboard/activities/${id}`, { count: '5' });
      expect(res.status).to.equal(400);
      expect(t.store.jobboardActivities.get(id)?.count).to.equal(99);
    });

    it('stores a created activity as a plain object with id first, then the fields in the order sent', async () => {
      const sent = jobboardActivity(faker);
      const res = await t.client.post('/jobboard/activities', [sent]);
      expect(res.status).to.equal(201);
      expect(res.text).to.include(`"data":[{"id":`);
      const created = items(res)[0] as Item;
      const stored = t.store.jobboardActivities.get(created['id'] as number) as unknown as Record<string, unknown>;
      expect(Object.getPrototypeOf(stored)).to.equal(Object.prototype);
      expect(stored.constructor).to.equal(Object);
      expect(Object.keys(stored)).to.deep.equal(['id', ...Object.keys(sent)]);
      expect(stored).to.deep.equal({ id: created['id'], ...sent });
    });

    it('answers 404 for an unknown id', async () => {
      expect((await t.client.put('/jobboard/activities/987654', jobboardActivity(faker))).status).to.equal(404);
      expect((await t.client.patch('/jobboard/activities/987654', {})).status).to.equal(404);
    });
  });

  describe('jobboard job offers', () => {
    it('PATCH merges; DELETE answers {message}; afterwards both answer 404', async () => {
      const original = jobboardJobOffer(faker);
      const id = items(await t.client.post('/jobboard/job-offers', [original]))[0]?.['id'] as number;
      const patched = await t.client.patch(`/jobboard/job-offers/${id}`, { title: 'Night Nurse' });
      expect(patched.body.data).to.deep.equal([{ id, ...original, title: 'Night Nurse' }]);
      const deleted = await t.client.delete(`/jobboard/job-offers/${id}`);
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.deep.equal({ message: 'Jobboard job offer deleted.' });
      expect((await t.client.patch(`/jobboard/job-offers/${id}`, {})).status).to.equal(404);
      expect((await t.client.delete(`/jobboard/job-offers/${id}`)).status).to.equal(404);
    });
  });

  describe('users', () => {
    it('PUT replaces the whole set and answers data [[users]] with next_link null', async () => {
      const users = [user(faker), user(faker)];
      const res = await t.client.put('/users', users);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([users]);
      expect(res.body.meta).to.deep.equal({ next_link: null });
      expect(t.store.users).to.deep.equal(users);
    });

    it('refuses the whole array when an item is invalid or a mail repeats, and keeps the set', async () => {
      const before = [...t.store.users];
      const a = user(faker);
      const res = await t.client.put('/users', [a, { first_name: 'No mail' }, { ...a }]);
      expect(res.status).to.equal(400);
      expect(res.body.errors?.map((e) => e.message)).to.deep.equal([
        'item 1: mail is required',
        `item 2: the mail ${JSON.stringify(a.mail)} appears twice`,
      ]);
      expect(t.store.users).to.deep.equal(before);
    });

    it('accepts an empty array: no users left', async () => {
      const res = await t.client.put('/users', []);
      expect(res.body.data).to.deep.equal([[]]);
      expect(t.store.users).to.have.length(0);
    });
  });
});
