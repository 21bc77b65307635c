import { expect } from 'chai';
import { createFaker, jobOffer, jobboardActivity } from '../src/data/factories.js';
import { parseIsoDate } from './dates.js';
import { items, startTest, type Client, type Harness, type Item } from '../test/support/simulator.js';

const faker = createFaker(11);

/** Follows meta.next_link from a first page to the end (at most 500 pages). */
async function walk(client: Client, first: string): Promise<{ records: Item[]; pages: number; links: string[] }> {
  const records: Item[] = [];
  const links: string[] = [];
  let next: string | null = first;
  let pages = 0;
  while (next !== null && pages < 500) {
    const res = await client.get(next);
    expect(res.status, next).to.equal(200);
    expect(res.body.meta, next).to.have.property('next_link');
    records.push(...items(res));
    next = res.body.meta?.next_link ?? null;
    if (next !== null) links.push(next);
    pages += 1;
  }
  expect(next, 'the walk ends').to.equal(null);
  return { records, pages, links };
}

const ids = (records: readonly object[]): unknown[] => records.map((r) => (r as Item)['id'] ?? (r as Item)['reference']);

describe('simulator: lists, filters and pagination', () => {
  let t: Harness;
  before(async () => {
    t = await startTest({ records: 400, pageSize: 7 });
  });
  after(() => t.close());

  it('walks every job offer exactly once, in creation order, ending with next_link null', async () => {
    const { records, pages } = await walk(t.client, '/ats/job-offers');
    const all = t.store.jobOffers.values();
    expect(records).to.deep.equal(all);
    expect(pages).to.equal(Math.ceil(all.length / 7));
  });

  it('walks the activities of one status, with absolute links that keep the filter', async () => {
    const { records, links } = await walk(t.client, '/jobboard/activities?status=viewed');
    const expected = t.store.jobboardActivities.values().filter((a) => a.status === 'viewed');
    expect(expected.length).to.be.greaterThan(14);
    expect(ids(records)).to.deep.equal(ids(expected));
    for (const link of links) {
      const url = new URL(link);
      expect(url.origin).to.equal(new URL(t.sim.baseUrl).origin);
      expect(url.searchParams.get('status')).to.equal('viewed');
      expect(url.searchParams.get('cursor')).to.be.a('string');
    }
  });

  it('keeps the walk stable while records are added', async () => {
    const first = await t.client.get('/jobboard/activities');
    const link = first.body.meta?.next_link as string;
    await t.client.post('/jobboard/activities', [jobboardActivity(faker), jobboardActivity(faker)]);
    const rest = await walk(t.client, link);
    const seen = [...items(first), ...rest.records];
    expect(new Set(ids(seen)).size).to.equal(seen.length);
    expect(ids(seen)).to.deep.equal(ids(t.store.jobboardActivities.values()));
  });

  describe('filters', () => {
    const refs = ['JO-FILTER-A', 'JO-FILTER-B', 'JO-FILTER-C'];
    before(async () => {
      await t.client.post('/ats/job-offers', refs.map((reference, i) => jobOffer(faker, { reference, publication_at: `2026-0${i + 3}-15T12:00:00Z` })));
      await t.client.post('/jobboard/activities', [
        jobboardActivity(faker, { job_offer_reference: 'JO-FILTER-A', recorded_at: '2026-03-01', status: 'hired' }),
        jobboardActivity(faker, { job_offer_reference: 'JO-FILTER-A', recorded_at: '2026-03-10', status: 'viewed' }),
        jobboardActivity(faker, { job_offer_reference: 'JO-FILTER-B', recorded_at: '2026-03-10T23:30:00Z', status: 'hired' }),
        jobboardActivity(faker, { job_offer_reference: 'JO-FILTER-C', recorded_at: '2026-03-20', status: 'hired' }),
      ]);
    });

    it('filters job offers by one reference', async () => {
      const res = await t.client.get('/ats/job-offers?reference=JO-FILTER-B');
      expect(items(res).map((r) => r['reference'])).to.deep.equal(['JO-FILTER-B']);
      expect(res.body.meta).to.deep.equal({ next_link: null });
    });

    it('filters by several references, repeated or with brackets', async () => {
      const repeat = await t.client.get('/ats/job-offers?reference=JO-FILTER-A&reference=JO-FILTER-C');
      const brackets = await t.client.get('/ats/job-offers?reference[]=JO-FILTER-A&reference%5B%5D=JO-FILTER-C');
      expect(items(repeat).map((r) => r['reference'])).to.deep.equal(['JO-FILTER-A', 'JO-FILTER-C']);
      expect(items(brackets)).to.deep.equal(items(repeat));
      const activities = await t.client.get('/jobboard/activities?job_offer_reference[]=JO-FILTER-A&job_offer_reference=JO-FILTER-B');
      expect(items(activities).map((r) => r['job_offer_reference'])).to.deep.equal(['JO-FILTER-A', 'JO-FILTER-A', 'JO-FILTER-B']);
    });

    it('filters job offers by publication date, bounds inclusive', async () => {
      const res = await t.client.get('/ats/job-offers?reference=JO-FILTER-A&reference=JO-FILTER-B&reference=JO-FILTER-C&min_publication_date=2026-04-15T12:00:00Z&max_publication_date=2026-05-15');
      expect(items(res).map((r) => r['reference'])).to.deep.equal(['JO-FILTER-B', 'JO-FILTER-C']);
    });

    it('filters activities by date (a calendar date as maximum covers its day) and status together', async () => {
      const refs3 = 'job_offer_reference=JO-FILTER-A&job_offer_reference=JO-FILTER-B&job_offer_reference=JO-FILTER-C';
      const march = await t.client.get(`/jobboard/activities?${refs3}&min_date=2026-03-01&max_date=2026-03-10`);
      expect(items(march).map((r) => r['recorded_at'])).to.deep.equal(['2026-03-01', '2026-03-10', '2026-03-10T23:30:00Z']);
      const hired = await t.client.get(`/jobboard/activities?${refs3}&status=hired&min_date=2026-03-02T00:00:00Z`);
      expect(items(hired).map((r) => r['job_offer_reference'])).to.deep.equal(['JO-FILTER-B', 'JO-FILTER-C']);
    });

    it('matches a brute-force filter of the store over the whole seed', async () => {
      const from = '2026-05-01';
      const to = '2026-08-31';
      const { records } = await walk(t.client, `/jobboard/activities?status=clicked&min_date=${from}&max_date=${to}`);
      const lo = parseIsoDate(from)?.ms as number;
      const hi = (parseIsoDate(to)?.ms as number) + 86_400_000 - 1;
      const expected = t.store.jobboardActivities.values().filter((a) => {
        const ms = parseIsoDate(a.recorded_at)?.ms as number;
        return a.status === 'clicked' && ms >= lo && ms <= hi;
      });
      expect(expected.length).to.be.greaterThan(0);
      expect(ids(records)).to.deep.equal(ids(expected));
    });

    it('refuses a date filter in another format, a repeated status and a forged cursor (400)', async () => {
      for (const query of ['min_date=yesterday', 'max_date=2026-13-01', 'status=a&status=b', 'cursor=abc']) {
        const res = await t.client.get(`/jobboard/activities?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.errors, query).to.be.an('array').that.is.not.empty;
      }
      expect((await t.client.get('/ats/job-offers?min_publication_date=01/03/2026')).status).to.equal(400);
    });

    it('answers an empty page, not an error, when nothing matches', async () => {
      const res = await t.client.get('/jobboard/activities?status=no-such-status');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.meta).to.deep.equal({ next_link: null });
    });
  });
});
