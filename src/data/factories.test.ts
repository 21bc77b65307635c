import { expect } from 'chai';
import { SCHEMA_BASE, interpretation, loadSchema, schemaErrors } from '../spec/index.js';
import * as factories from './factories.js';
import { ACTIVITY_STATUSES, DATA_ANCHOR, DATA_WINDOW_START, USER_STATUSES } from './vocabulary.js';

const { createFaker } = factories;

/** Each factory with the schema its items must satisfy. */
const CASES = [
  { name: 'jobOffer', make: factories.jobOffer, schema: 'job-offer.json#/$defs/create' },
  { name: 'jobOfferAttribute', make: factories.jobOfferAttribute, schema: 'job-offer-attribute.json#/$defs/create' },
  { name: 'applicationStep', make: factories.applicationStep, schema: 'application-step.json#/$defs/create' },
  { name: 'jobboardActivity', make: factories.jobboardActivity, schema: 'jobboard-activity.json#/$defs/create' },
  { name: 'jobboardJobOffer', make: factories.jobboardJobOffer, schema: 'jobboard-job-offer.json#/$defs/create' },
  { name: 'user', make: factories.user, schema: 'user.json#/$defs/replace-item' },
] as const;

describe('data factories', () => {
  it('exports createFaker and one factory per resource, nothing else callable', () => {
    const callables = Object.entries(factories).filter(([, v]) => typeof v === 'function').map(([k]) => k).sort();
    expect(callables).to.deep.equal(['createFaker', ...CASES.map((c) => c.name)].sort());
  });

  for (const c of CASES) {
    it(`${c.name} makes items valid against ${c.schema}`, () => {
      for (const seed of [1, 2, 3]) {
        const faker = createFaker(seed);
        for (let i = 0; i < 60; i++) {
          const item = c.make(faker);
          expect(schemaErrors(`${SCHEMA_BASE}${c.schema}`, item), JSON.stringify(item)).to.deep.equal([]);
        }
      }
    });

    it(`${c.name} gives the same items for the same seed, others for another`, () => {
      const run = (seed: number): unknown[] => {
        const faker = createFaker(seed);
        return Array.from({ length: 5 }, () => c.make(faker));
      };
      expect(run(8)).to.deep.equal(run(8));
      expect(run(8)).not.to.deep.equal(run(9));
    });
  }

  it('a faker reseeded after use makes what a new faker with that seed makes (the engine reuses them)', () => {
    const used = createFaker(5);
    for (const c of CASES) c.make(used);
    used.lorem.paragraphs(3);
    used.seed(11);
    const fresh = createFaker(11);
    const made = (faker: ReturnType<typeof createFaker>): unknown[] =>
      [...CASES.map((c) => c.make(faker)), faker.lorem.sentence(), faker.date.recent().toISOString()];
    expect(made(used)).to.deep.equal(made(fresh));
  });

  it('every schema field is produced by some item (the factories cover the resource)', () => {
    for (const c of CASES) {
      const file = c.schema.split('#')[0] as string;
      const defs = loadSchema(file)['$defs'] as Record<string, { properties?: Record<string, unknown> }>;
      const fields = Object.keys(defs['fields']?.properties ?? defs['create']?.properties ?? {});
      const faker = createFaker(4);
      const seen = new Set<string>();
      for (let i = 0; i < 200; i++) for (const key of Object.keys(c.make(faker))) seen.add(key);
      expect(fields, `${c.name}: the schema's fields`).to.not.be.empty;
      const optionalRare = ['job_offer_reference_3', 'reference_3'];
      for (const field of fields) if (!optionalRare.includes(field) || c.name === 'jobOffer') expect(seen.has(field), `${c.name}.${field}`).to.equal(true);
    }
  });

  it('applies overrides: a value replaces, undefined removes, null stays', () => {
    const faker = createFaker(1);
    const item = factories.jobOffer(faker, { reference: 'JO-RUN-1', description: undefined, reference_2: null });
    expect(item.reference).to.equal('JO-RUN-1');
    expect(item).not.to.have.property('description');
    expect(item.reference_2).to.equal(null);
    const step = factories.applicationStep(faker, { step: 'interview' });
    expect(step.step_ats_id).to.equal('STEP-03');
  });

  it('uses its own faker: two instances with one seed agree whatever else draws in between', () => {
    const a = createFaker(3);
    const b = createFaker(3);
    const first = factories.jobOffer(a);
    createFaker(3).number.int();
    expect(factories.jobOffer(b)).to.deep.equal(first);
  });

  it('dates fall in the fixed window, not around today', () => {
    const faker = createFaker(6);
    for (let i = 0; i < 100; i++) {
      const ms = Date.parse(factories.jobOffer(faker).publication_at);
      expect(ms).to.be.within(DATA_WINDOW_START, DATA_ANCHOR);
    }
  });

  it('uses the seeded vocabularies the interpretation register names', () => {
    const activity = interpretation('ACTIVITY_STATUS_VALUES').simulator.text;
    for (const status of ACTIVITY_STATUSES) expect(activity).to.include(status);
    const users = interpretation('USER_REQUIRED').simulator.text;
    for (const status of USER_STATUSES) expect(users).to.include(status);
  });
});
