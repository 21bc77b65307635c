// The simulator's seed data: a year of recruiting told consistently. Job offers are published through the year;
// some are posted on the job board, which records daily activity for them; candidates apply and move through the
// pipeline. One seed always gives the same data (the faker is seeded and no value reads the clock).
import {
  applicationStep, createFaker, jobOffer, jobboardActivity, jobboardJobOffer, user, type Faker,
} from '../src/data/factories.js';
import {
  activityCount, candidate, isoDate, isoDateTime, jobOfferReference, pickActivityStatus,
} from '../src/data/values.js';
import {
  APPLICATION_SOURCES, DATA_ANCHOR, DATA_WINDOW_START, DAY_MS, STEP_ADVANCE_CHANCE, STEP_OUTCOMES, STEP_PIPELINE,
  STEP_REJECT_CHANCE, SUBSIDIARIES, type Subsidiary,
} from '../src/data/vocabulary.js';
import type { SeedCounts } from './public.js';
import type { JobOfferRecord, Store, UserRecord } from './store.js';

/** How a seed volume is shared among the resources. */
export const SEED_SHARES = {
  jobOffers: 0.2,
  applicationSteps: 0.4,
  jobboardActivities: 0.3,
  jobboardJobOffers: 0.08,
  users: 0.02,
} as const satisfies Record<keyof SeedCounts, number>;
/** Declared in public.ts (a started simulator shows them); one share per resource counted there. */
export type { SeedCounts };

/** The number of records of each resource for a total volume; the counts add up to it. */
export function seedCounts(records: number): SeedCounts {
  const jobOffers = records > 0 ? Math.max(1, Math.round(records * SEED_SHARES.jobOffers)) : 0;
  const jobboardJobOffers = Math.min(jobOffers, Math.round(records * SEED_SHARES.jobboardJobOffers));
  const users = Math.round(records * SEED_SHARES.users);
  const jobboardActivities = jobboardJobOffers > 0 ? Math.round(records * SEED_SHARES.jobboardActivities) : 0;
  const applicationSteps = Math.max(0, records - jobOffers - jobboardJobOffers - users - jobboardActivities);
  return { jobOffers, applicationSteps, jobboardActivities, jobboardJobOffers, users };
}

const SUBSIDIARY_BY_NAME = new Map<string, Subsidiary>(SUBSIDIARIES.map((s) => [s.name, s]));
const WINDOW_MINUTES = (DATA_ANCHOR - DATA_WINDOW_START) / 60_000;

interface Posting {
  offer: JobOfferRecord;
  published: number;
}

function seedJobOffers(store: Store, faker: Faker, count: number): Posting[] {
  const postings: Posting[] = [];
  const step = WINDOW_MINUTES / count;
  for (let i = 0; i < count; i++) {
    // Spread evenly through the window (so creation order is publication order), jittered within each slot.
    const minute = Math.floor(i * step) + faker.number.int({ min: 0, max: Math.max(0, Math.floor(step) - 1) });
    const published = DATA_WINDOW_START + minute * 60_000;
    const item = jobOffer(faker, {
      publication_at: isoDateTime(published),
      reference: jobOfferReference(new Date(published).getUTCFullYear(), i + 1),
    });
    const stored = store.jobOffers.insert(() => item);
    if (stored) postings.push({ offer: stored, published });
  }
  return postings;
}

function seedJobboard(store: Store, faker: Faker, postings: readonly Posting[], counts: SeedCounts): void {
  const posted: Posting[] = [];
  for (let k = 0; k < counts.jobboardJobOffers; k++) {
    const posting = postings[Math.floor((k * postings.length) / counts.jobboardJobOffers)] as Posting;
    const { offer } = posting;
    const sub = SUBSIDIARY_BY_NAME.get(offer.subsidiary ?? '');
    store.jobboardJobOffers.insert((id) => ({
      id,
      ...jobboardJobOffer(faker, {
        title: offer.title,
        reference: offer.reference,
        reference_2: offer.reference_2 ?? undefined,
        subsidiary: offer.subsidiary ?? undefined,
        subsidiary_jobboard_id: sub?.jobboardId,
        description: offer.description ?? undefined,
      }),
    }));
    posted.push(posting);
  }
  if (posted.length === 0) return;
  // Activity runs day by day through the window, for offers posted in the weeks before each day.
  let hi = 0;
  for (let a = 0; a < counts.jobboardActivities; a++) {
    const day = DATA_WINDOW_START + Math.floor((a * (DATA_ANCHOR - DATA_WINDOW_START)) / counts.jobboardActivities / DAY_MS) * DAY_MS;
    while (hi < posted.length && (posted[hi] as Posting).published < day + DAY_MS) hi++;
    const pick = faker.number.int({ min: Math.max(0, hi - 40), max: Math.max(0, hi - 1) });
    const { offer, published } = posted[pick] as Posting;
    const sub = SUBSIDIARY_BY_NAME.get(offer.subsidiary ?? '');
    const status = pickActivityStatus(faker);
    store.jobboardActivities.insert((id) => ({
      id,
      ...jobboardActivity(faker, {
        recorded_at: isoDate(Math.max(day, published)),
        job_offer_reference: offer.reference,
        job_offer_reference_2: offer.reference_2 ?? undefined,
        job_offer_title: offer.title,
        status,
        subsidiary: offer.subsidiary ?? undefined,
        subsidiary_jobboard_id: sub?.jobboardId,
        count: activityCount(faker, status),
      }),
    }));
  }
}

function seedApplicationSteps(store: Store, faker: Faker, postings: readonly Posting[], count: number): void {
  if (postings.length === 0) return;
  let made = 0;
  let application = 0;
  // Each pass makes one application (at least one step), so the loop ends within `count` passes.
  while (made < count) {
    const { offer, published } = faker.helpers.arrayElement(postings);
    const sub = SUBSIDIARY_BY_NAME.get(offer.subsidiary ?? '');
    let at = published + faker.number.int({ min: 60, max: 14 * 24 * 60 }) * 60_000;
    if (at >= DATA_ANCHOR) at = Math.max(published, DATA_ANCHOR - 60_000);
    const who = candidate(faker, at - faker.number.int({ min: 0, max: 90 }) * DAY_MS);
    application += 1;
    const shared = {
      job_offer_reference: offer.reference,
      job_offer_reference_2: offer.reference_2 ?? undefined,
      job_offer_title: offer.title,
      ...who,
      source: faker.helpers.arrayElement(APPLICATION_SOURCES),
      application_ats_id: `APP-${String(application).padStart(8, '0')}`,
      subsidiary: offer.subsidiary ?? undefined,
      subsidiary_ats_id: sub?.atsId,
    };
    const add = (step: string): void => {
      store.applicationSteps.insert((id) => ({ id, ...applicationStep(faker, { ...shared, step, recorded_at: isoDateTime(at) }) }));
      made += 1;
      at += faker.number.int({ min: 2 * 24 * 60, max: 12 * 24 * 60 }) * 60_000;
    };
    for (const step of STEP_PIPELINE) {
      add(step);
      if (made >= count || at >= DATA_ANCHOR) break;
      if (!faker.datatype.boolean(STEP_ADVANCE_CHANCE[step])) {
        if (faker.datatype.boolean(STEP_REJECT_CHANCE)) add(STEP_OUTCOMES[1]);
        break;
      }
      if (step === STEP_PIPELINE[STEP_PIPELINE.length - 1]) add(STEP_OUTCOMES[0]);
    }
  }
}

function seedUsers(store: Store, faker: Faker, count: number): void {
  const seen = new Set<string>();
  const users: UserRecord[] = [];
  for (let i = 0; i < count; i++) {
    const item = user(faker);
    // Mail identifies a user; the rare generated twin gets a distinct address.
    if (seen.has(item.mail)) item.mail = item.mail.replace('@', `.${i}@`);
    seen.add(item.mail);
    users.push(item);
  }
  store.replaceUsers(users);
}

/** Empties the store and fills it with `records` records made from `seed`. */
export function seedStore(store: Store, seed: number, records: number): SeedCounts {
  store.clear();
  const counts = seedCounts(records);
  const faker = createFaker(seed);
  const postings = seedJobOffers(store, faker, counts.jobOffers);
  seedJobboard(store, faker, postings, counts);
  seedApplicationSteps(store, faker, postings, counts.applicationSteps);
  seedUsers(store, faker, counts.users);
  return counts;
}
