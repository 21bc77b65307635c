// Faker factories, one per resource, shared by the simulator (its seed data) and the harness (its test data).
// Each takes a faker the caller created with createFaker(seed), never the global one, so a seed always gives the
// same items; and each returns a create item valid against spec/schemas, with the caller's overrides applied.
// Only createFaker and the factories (named after their resource, camel-cased) are exported from here: the
// harness takes every exported function as a factory. Value makers live in values.ts.
import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import type {
  ApplicationStepItem, JobOfferAttributeItem, JobOfferItem, JobboardActivityItem, JobboardJobOfferItem,
  Overrides, UserItem,
} from './types.js';
import {
  ATTRIBUTE_MAKERS, ATTRIBUTE_NAMES, activityCount, candidate, describeOffer, instantInWindow, isoDate, isoDateTime,
  jobOfferAttributes, jobOfferReference, pickActivityStatus, pickSubsidiary,
} from './values.js';
import { ACTIVITY_STATUSES, APPLICATION_SOURCES, DATA_ANCHOR, STEPS, USER_STATUSES, type ActivityStatus } from './vocabulary.js';

export type { Faker };

/** A new faker with the English locale, seeded, and with its reference date pinned so no value reads the clock. */
// The English entry alone: the package's main entry loads every locale, which cost 0.7 s of the simulator's start-up.
// Its instance's class and merged definitions (en over base) make independent fakers with the same output.
const EnglishFaker = english.constructor as new (options: { locale: LocaleDefinition }) => Faker;

export function createFaker(seed: number): Faker {
  const faker = new EnglishFaker({ locale: english.rawDefinitions });
  faker.seed(seed);
  faker.setDefaultRefDate(new Date(DATA_ANCHOR));
  return faker;
}

// --- how an item is put together ----------------------------------------------------------------------------

type Accessors<T> = { [K in keyof T]-?: () => T[K] | null | undefined };

/**
 * Lazy field makers that honour overrides: a field the caller overrides is never generated, and one generated
 * field can read another (a description names the title) and see the override when there is one.
 */
function draft<T>(overrides: Overrides<T>) {
  const made = new Map<keyof T, unknown>();
  return <K extends keyof T>(key: K, make: () => T[K] | undefined) => (): T[K] | null | undefined => {
    if (Object.hasOwn(overrides, key)) return overrides[key];
    if (!made.has(key)) made.set(key, make());
    return made.get(key) as T[K] | undefined;
  };
}

/** Evaluates the accessors in declaration order (so faker is drawn in a fixed order) and drops undefined fields. */
function assemble<T>(fields: Accessors<T>, overrides: Overrides<T>): T {
  const item: Record<string, unknown> = {};
  for (const key of Object.keys(fields) as (keyof T & string)[]) {
    const value = fields[key]();
    if (value !== undefined) item[key] = value;
  }
  // A caller may add a field the schema does not know (a negative case); it goes in as given.
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in fields) && value !== undefined) item[key] = value;
  }
  return item as T;
}

function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

function maybe<T>(faker: Faker, probability: number, make: () => T): T | undefined {
  return faker.datatype.boolean(probability) ? make() : undefined;
}


// --- the factories --------------------------------------------------------------------------------------------

export function jobOfferAttribute(faker: Faker, overrides: Overrides<JobOfferAttributeItem> = {}): JobOfferAttributeItem {
  const f = draft(overrides);
  const fields: Accessors<JobOfferAttributeItem> = {
    name: f('name', () => faker.helpers.arrayElement(ATTRIBUTE_NAMES)),
    value: f('value', () => {
      const name = fields.name();
      const make = typeof name === 'string' ? ATTRIBUTE_MAKERS[name] : undefined;
      return make ? make(faker) : faker.commerce.productAdjective();
    }),
  };
  return assemble(fields, overrides);
}

export function jobOffer(faker: Faker, overrides: Overrides<JobOfferItem> = {}): JobOfferItem {
  const f = draft(overrides);
  const at = once(() => instantInWindow(faker));
  const sub = once(() => pickSubsidiary(faker));
  const fields: Accessors<JobOfferItem> = {
    publication_at: f('publication_at', () => isoDateTime(at())),
    title: f('title', () => faker.person.jobTitle()),
    reference: f('reference', () => jobOfferReference(new Date(at()).getUTCFullYear(), faker.number.int({ min: 1, max: 999_999 }))),
    reference_2: f('reference_2', () => maybe(faker, 0.5, () => `REQ-${faker.string.numeric(5)}`)),
    reference_3: f('reference_3', () => maybe(faker, 0.2, () => `EXT-${faker.string.alphanumeric({ length: 6, casing: 'upper' })}`)),
    subsidiary: f('subsidiary', () => sub().name),
    subsidiary_ats_id: f('subsidiary_ats_id', () => sub().atsId),
    description: f('description', () => describeOffer(faker, fields.title() ?? 'colleague', fields.subsidiary() ?? sub().name)),
    attributes: f('attributes', () => {
      const list = jobOfferAttributes(faker);
      return list.length > 0 ? list : undefined;
    }),
  };
  return assemble(fields, overrides);
}

export function applicationStep(faker: Faker, overrides: Overrides<ApplicationStepItem> = {}): ApplicationStepItem {
  const f = draft(overrides);
  const at = once(() => instantInWindow(faker));
  const sub = once(() => pickSubsidiary(faker));
  const who = once(() => candidate(faker, at() - faker.number.int({ min: 0, max: 30 }) * 86_400_000));
  const fields: Accessors<ApplicationStepItem> = {
    recorded_at: f('recorded_at', () => isoDateTime(at())),
    job_offer_reference: f('job_offer_reference', () => jobOfferReference(new Date(at()).getUTCFullYear(), faker.number.int({ min: 1, max: 999_999 }))),
    job_offer_reference_2: f('job_offer_reference_2', () => maybe(faker, 0.3, () => `REQ-${faker.string.numeric(5)}`)),
    job_offer_reference_3: f('job_offer_reference_3', () => undefined),
    job_offer_title: f('job_offer_title', () => faker.person.jobTitle()),
    candidate_creation_date: f('candidate_creation_date', () => who().candidate_creation_date),
    candidate_mail: f('candidate_mail', () => who().candidate_mail),
    candidate_phone: f('candidate_phone', () => who().candidate_phone),
    candidate_ats_id: f('candidate_ats_id', () => who().candidate_ats_id),
    source: f('source', () => faker.helpers.arrayElement(APPLICATION_SOURCES)),
    step: f('step', () => faker.helpers.arrayElement(STEPS)),
    step_ats_id: f('step_ats_id', () => {
      const step = fields.step();
      const index = typeof step === 'string' ? STEPS.indexOf(step) : -1;
      return index >= 0 ? `STEP-${String(index + 1).padStart(2, '0')}` : undefined;
    }),
    application_ats_id: f('application_ats_id', () => `APP-${faker.string.numeric(8)}`),
    subsidiary: f('subsidiary', () => sub().name),
    subsidiary_ats_id: f('subsidiary_ats_id', () => sub().atsId),
  };
  return assemble(fields, overrides);
}

export function jobboardActivity(faker: Faker, overrides: Overrides<JobboardActivityItem> = {}): JobboardActivityItem {
  const f = draft(overrides);
  const at = once(() => instantInWindow(faker));
  const sub = once(() => pickSubsidiary(faker));
  const status = once(() => pickActivityStatus(faker));
  const fields: Accessors<JobboardActivityItem> = {
    recorded_at: f('recorded_at', () => isoDate(at())),
    job_offer_reference: f('job_offer_reference', () => jobOfferReference(new Date(at()).getUTCFullYear(), faker.number.int({ min: 1, max: 999_999 }))),
    job_offer_reference_2: f('job_offer_reference_2', () => maybe(faker, 0.3, () => `REQ-${faker.string.numeric(5)}`)),
    job_offer_reference_3: f('job_offer_reference_3', () => undefined),
    job_offer_title: f('job_offer_title', () => faker.person.jobTitle()),
    status: f('status', () => status()),
    subsidiary: f('subsidiary', () => sub().name),
    subsidiary_jobboard_id: f('subsidiary_jobboard_id', () => sub().jobboardId),
    count: f('count', () => {
      const chosen = fields.status();
      const known = (ACTIVITY_STATUSES as readonly string[]).includes(chosen ?? '') ? (chosen as ActivityStatus) : status();
      return activityCount(faker, known);
    }),
  };
  return assemble(fields, overrides);
}

export function jobboardJobOffer(faker: Faker, overrides: Overrides<JobboardJobOfferItem> = {}): JobboardJobOfferItem {
  const f = draft(overrides);
  const sub = once(() => pickSubsidiary(faker));
  const fields: Accessors<JobboardJobOfferItem> = {
    title: f('title', () => faker.person.jobTitle()),
    reference: f('reference', () => jobOfferReference(new Date(instantInWindow(faker)).getUTCFullYear(), faker.number.int({ min: 1, max: 999_999 }))),
    reference_2: f('reference_2', () => maybe(faker, 0.3, () => `REQ-${faker.string.numeric(5)}`)),
    reference_3: f('reference_3', () => undefined),
    subsidiary: f('subsidiary', () => sub().name),
    subsidiary_jobboard_id: f('subsidiary_jobboard_id', () => sub().jobboardId),
    description: f('description', () => describeOffer(faker, fields.title() ?? 'colleague', fields.subsidiary() ?? sub().name)),
  };
  return assemble(fields, overrides);
}

/** Lower-case ASCII letters only, for the local part of a generated mail address. */
function mailPart(name: string): string {
  return name.normalize('NFKD').replace(/[^A-Za-z]/g, '').toLowerCase() || 'user';
}

export function user(faker: Faker, overrides: Overrides<UserItem> = {}): UserItem {
  const f = draft(overrides);
  const sub = once(() => pickSubsidiary(faker));
  const fields: Accessors<UserItem> = {
    mail: f('mail', () => `${mailPart(fields.first_name() ?? 'user')}.${mailPart(fields.last_name() ?? 'user')}.${faker.string.numeric(4)}@${sub().domain}`),
    first_name: f('first_name', () => faker.person.firstName()),
    last_name: f('last_name', () => faker.person.lastName()),
    subsidiary: f('subsidiary', () => sub().name),
    status: f('status', () => faker.helpers.weightedArrayElement([
      { value: USER_STATUSES[0], weight: 80 }, { value: USER_STATUSES[1], weight: 12 }, { value: USER_STATUSES[2], weight: 8 },
    ])),
  };
  return assemble(fields, overrides);
}
