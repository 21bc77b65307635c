import { expect } from 'chai';
import { SCHEMA_BASE, schemaErrors } from '../src/spec/index.js';
import { seedCounts, seedStore } from './seed.js';
import { Store } from './store.js';

describe('simulator seed', () => {
  it('shares a volume among the resources, adding up to it', () => {
    for (const records of [0, 1, 7, 100, 1000, 123_457]) {
      const counts = seedCounts(records);
      expect(Object.values(counts).reduce((a, b) => a + b, 0), String(records)).to.equal(records);
    }
    expect(seedCounts(1000)).to.deep.include({ jobOffers: 200 });
  });

  it('tells one consistent story: every link names an existing job offer, every record is valid', () => {
    const store = new Store();
    seedStore(store, 3, 2000);
    const offers = new Map(store.jobOffers.values().map((o) => [o.reference, o]));
    for (const offer of offers.values()) expect(offer.reference).to.match(/^JO-\d{4}-\d{6}$/);
    const posted = new Set(store.jobboardJobOffers.values().map((o) => o.reference));
    for (const ref of posted) expect(offers.has(ref), ref).to.equal(true);
    for (const a of store.jobboardActivities.values()) {
      expect(posted.has(a.job_offer_reference), a.job_offer_reference).to.equal(true);
      expect(a.recorded_at >= (offers.get(a.job_offer_reference)?.publication_at.slice(0, 10) ?? '')).to.equal(true);
      expect(schemaErrors(`${SCHEMA_BASE}jobboard-activity.json#/$defs/record-with-id`, a)).to.deep.equal([]);
    }
    const byApplication = new Map<string, string[]>();
    for (const s of store.applicationSteps.values()) {
      const offer = offers.get(s.job_offer_reference);
      expect(offer, s.job_offer_reference).not.to.equal(undefined);
      expect(s.job_offer_title).to.equal(offer?.title);
      expect(s.recorded_at >= (offer?.publication_at ?? '')).to.equal(true);
      expect(schemaErrors(`${SCHEMA_BASE}application-step.json#/$defs/record-with-id`, s)).to.deep.equal([]);
      byApplication.set(s.application_ats_id, [...(byApplication.get(s.application_ats_id) ?? []), s.step]);
    }
    for (const steps of byApplication.values()) expect(steps[0]).to.equal('applied');
    for (const o of store.jobOffers.values()) expect(schemaErrors(`${SCHEMA_BASE}job-offer.json#/$defs/create`, o)).to.deep.equal([]);
    expect(new Set(store.users.map((u) => u.mail)).size).to.equal(store.users.length);
  });

  it('gives identical data for one seed', () => {
    const a = new Store();
    const b = new Store();
    seedStore(a, 12, 500);
    seedStore(b, 12, 500);
    expect(JSON.stringify(a.jobOffers.values())).to.equal(JSON.stringify(b.jobOffers.values()));
    expect(JSON.stringify(a.applicationSteps.values())).to.equal(JSON.stringify(b.applicationSteps.values()));
    expect(JSON.stringify(a.jobboardActivities.values())).to.equal(JSON.stringify(b.jobboardActivities.values()));
    expect(a.users).to.deep.equal(b.users);
  });
});
