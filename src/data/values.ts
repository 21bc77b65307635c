// Value makers behind the factories (dates, references, subsidiaries, candidates), for the factories and the
// simulator's seed. Every one draws from the faker it is given, never from the global one or the clock.
import type { Faker } from '@faker-js/faker';
import type { ApplicationStepItem, JobOfferAttributeItem } from './types.js';
import {
  ACTIVITY_PROFILE, ACTIVITY_STATUSES, CONTRACT_TYPES, DATA_ANCHOR, DATA_WINDOW_START, EXPERIENCE_LEVELS,
  SUBSIDIARIES, WORK_MODES, type ActivityStatus, type Subsidiary,
} from './vocabulary.js';

/** `2026-03-01T09:00:00Z`: the form of the spec's examples (no fraction of a second). */
export function isoDateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `2026-03-01`. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A minute inside the data window. */
export function instantInWindow(faker: Faker): number {
  const minutes = faker.number.int({ min: 0, max: (DATA_ANCHOR - DATA_WINDOW_START) / 60_000 - 1 });
  return DATA_WINDOW_START + minutes * 60_000;
}

/** `JO-2026-000123`: the main reference an ATS job offer, its steps and its jobboard records share. */
export function jobOfferReference(year: number, serial: number): string {
  return `JO-${year}-${String(serial).padStart(6, '0')}`;
}

export function pickSubsidiary(faker: Faker): Subsidiary {
  return faker.helpers.arrayElement(SUBSIDIARIES);
}

export function pickActivityStatus(faker: Faker): ActivityStatus {
  return faker.helpers.weightedArrayElement(ACTIVITY_STATUSES.map((value) => ({ value, weight: ACTIVITY_PROFILE[value].weight })));
}

export function activityCount(faker: Faker, status: ActivityStatus): number {
  const [min, max] = ACTIVITY_PROFILE[status].count;
  return faker.number.int({ min, max });
}

/** The candidate fields of an application step: one candidate keeps them through the whole pipeline. */
export type Candidate = Required<Pick<ApplicationStepItem,
  'candidate_ats_id' | 'candidate_mail' | 'candidate_phone' | 'candidate_creation_date'>>;

export function candidate(faker: Faker, createdAt: number = instantInWindow(faker)): Candidate {
  const firstName = faker.person.firstName();
  const lastName = faker.person.lastName();
  return {
    candidate_ats_id: `CAND-${faker.string.numeric(7)}`,
    candidate_mail: faker.internet.email({ firstName, lastName }).toLowerCase(),
    candidate_phone: faker.phone.number({ style: 'international' }),
    candidate_creation_date: isoDateTime(createdAt),
  };
}

export function describeOffer(faker: Faker, title: string, subsidiary: string): string {
  return `${subsidiary} is hiring a ${title} in ${faker.location.city()}. ${faker.company.catchPhrase()}.`;
}

export const ATTRIBUTE_MAKERS: Readonly<Record<string, (faker: Faker) => string>> = {
  contract_type: (faker) => faker.helpers.arrayElement(CONTRACT_TYPES),
  work_mode: (faker) => faker.helpers.arrayElement(WORK_MODES),
  experience_level: (faker) => faker.helpers.arrayElement(EXPERIENCE_LEVELS),
  location: (faker) => faker.location.city(),
  department: (faker) => faker.commerce.department(),
  salary_range: (faker) => {
    const low = faker.number.int({ min: 28, max: 90 }) * 1000;
    return `${low}-${low + faker.number.int({ min: 5, max: 25 }) * 1000} EUR`;
  },
};
export const ATTRIBUTE_NAMES: readonly string[] = Object.keys(ATTRIBUTE_MAKERS);

/** Up to `max` attributes with distinct names. */
export function jobOfferAttributes(faker: Faker, max = 3): JobOfferAttributeItem[] {
  const names = faker.helpers.arrayElements(ATTRIBUTE_NAMES, { min: 0, max });
  return names.map((name) => ({ name, value: (ATTRIBUTE_MAKERS[name] as (f: Faker) => string)(faker) }));
}

