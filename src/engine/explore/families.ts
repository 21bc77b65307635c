// The resources exploration writes, as the spec gives them: their operations, how a record is addressed and read
// back, and which fields the records of one sequence share on purpose. Everything else comes from spec/schemas.
import { ACTIVITY_STATUSES } from '../../data/vocabulary.js';
import { operation, resourceInfo, type FieldInfo } from '../../spec/index.js';
import type { ProfileDeclared } from '../../config/profile.js';

export const FAMILY_NAMES = ['application-steps', 'ats-job-offers', 'jobboard-activities', 'jobboard-job-offers'] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];
/** What an explore case names: a family of records, or the token endpoint's credentials. */
export const EXPLORE_MODELS = [...FAMILY_NAMES, 'credentials'] as const;
export type ExploreModel = (typeof EXPLORE_MODELS)[number];

export interface Family {
  name: FamilyName;
  /** The resource of spec/schemas. */
  resource: string;
  create: string;
  /** PUT of a whole record, where the spec has one (not for jobboard job offers). */
  replace?: string;
  patch: string;
  /** DELETE of a record, where the spec has one (jobboard job offers). */
  remove?: string;
  /** One record read by {id} (application steps, ATS job offers). */
  get?: string;
  /** The list read filtered by a shared reference, where there is no read by {id} (jobboard activities). */
  list?: { operation: string; filter: string };
  /**
   * Read back by a PATCH with nothing, where the spec has neither a read by {id} nor a list (jobboard job offers):
   * PATCH accepts an empty object (WRITE.PATCH_EMPTY) and answers the record in data, as the hand-written cases read it.
   */
  readByEmptyPatch?: true;
  /**
   * Fields every create carries although the spec's table says "no", because which fields are required is open: the
   * harness's reading (JOBBOARD_JOB_OFFER_REQUIRED sends reference and title), and the declared ones under this key.
   */
  alsoRequired?: { fields: string[]; declaredKey: string };
  /**
   * How {id} names a record: the numeric id the service assigns, learned when the record is created, or the
   * reference itself (ATS job offers, interpretation ATS_JOB_OFFER_ID; an id source maps it where declared).
   */
  addressedBy: 'id' | 'reference';
  /**
   * The field unique to each record that no write changes: the {id} of an ATS job offer; the reference of a jobboard
   * job offer, its identity, which tells the records of a create answer apart.
   */
  unique?: string;
  /** Fields whose values come from a few shared per sequence, so that a write that leaks into another record shows. */
  shared: string[];
  /** Fields exploration leaves to endpoints of their own (the attributes of a job offer). */
  apart: string[];
}

export const FAMILIES: Readonly<Record<FamilyName, Family>> = {
  'application-steps': {
    name: 'application-steps', resource: 'application-step', create: 'batchCreateApplicationSteps', replace: 'replaceApplicationStep',
    patch: 'patchApplicationStep', get: 'getApplicationStep', addressedBy: 'id',
    shared: ['job_offer_reference', 'application_ats_id', 'candidate_ats_id'], apart: [],
  },
  'ats-job-offers': {
    name: 'ats-job-offers', resource: 'job-offer', create: 'batchCreateJobOffers', replace: 'replaceJobOffer', patch: 'patchJobOffer',
    get: 'getJobOffer', addressedBy: 'reference', unique: 'reference', shared: ['reference_2', 'reference_3'], apart: ['attributes'],
  },
  'jobboard-activities': {
    name: 'jobboard-activities', resource: 'jobboard-activity', create: 'batchCreateJobboardActivities', replace: 'replaceJobboardActivity',
    patch: 'patchJobboardActivity', list: { operation: 'listJobboardActivities', filter: 'job_offer_reference' }, addressedBy: 'id',
    shared: ['job_offer_reference'], apart: [],
  },
  'jobboard-job-offers': {
    name: 'jobboard-job-offers', resource: 'jobboard-job-offer', create: 'batchCreateJobboardJobOffers', patch: 'patchJobboardJobOffer',
    remove: 'deleteJobboardJobOffer', readByEmptyPatch: true, addressedBy: 'id', unique: 'reference', shared: ['reference_2', 'subsidiary'], apart: [],
    alsoRequired: { fields: ['title'], declaredKey: 'jobboardJobOfferRequired' },
  },
};

/**
 * The fields a family's writes carry, with whether a create or a PUT must carry them: the schema's required ones, and
 * where the spec leaves that open, those the harness always sends and those the profile declares.
 */
export function writableFields(family: Family, declared: ProfileDeclared = {}): (FieldInfo & { required: boolean })[] {
  const info = resourceInfo(family.resource);
  const also = family.alsoRequired;
  const listed = also ? declared[also.declaredKey] : undefined;
  const required = new Set([...info.required, ...(also?.fields ?? []), ...(Array.isArray(listed) ? listed.map(String) : [])]);
  return info.fields.filter((f) => !family.apart.includes(f.name)).map((f) => ({ ...f, required: required.has(f.name) }));
}

/**
 * Fields whose values the spec leaves to the implementation (ACTIVITY_STATUS_VALUES): the declared values, else the
 * vocabulary the simulator seeds; exploration never sends another, since refusing one is legal.
 */
export function vocabularyOf(family: Family, field: string, declared: ProfileDeclared): readonly string[] | undefined {
  if (family.name !== 'jobboard-activities' || field !== 'status') return undefined;
  const statuses = declared['activityStatuses'];
  return Array.isArray(statuses) && statuses.length ? statuses.map(String) : ACTIVITY_STATUSES;
}

/** The endpoints (1..21) a model's cases call, for coverage and filters. */
export function exploreEndpoints(model: ExploreModel): number[] {
  if (model === 'credentials') return [1, 3];
  const f = FAMILIES[model];
  const ids = [f.create, f.replace, f.patch, f.remove, f.get, f.list?.operation, ...(model === 'ats-job-offers' ? ['listJobOffers', 'batchCreateJobOfferAttributes', 'patchJobOfferAttribute', 'deleteJobOfferAttribute'] : [])];
  return [...new Set(ids.filter((id): id is string => !!id).map((id) => operation(id).endpoint))].sort((a, b) => a - b);
}
