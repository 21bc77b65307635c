// The resources exploration writes, as the spec gives them: their operations, how a record is addressed and read
// back, and which fields the records of one sequence share on purpose. Everything else comes from spec/schemas.
import { ACTIVITY_STATUSES } from '../../data/vocabulary.js';
import { operation, resourceInfo, type FieldInfo } from '../../spec/index.js';
import type { ProfileDeclared } from '../../config/profile.js';

export const FAMILY_NAMES = ['application-steps', 'ats-job-offers', 'jobboard-activities'] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];
/** What an explore case names: a family of records, or the token endpoint's credentials. */
export const EXPLORE_MODELS = [...FAMILY_NAMES, 'credentials'] as const;
export type ExploreModel = (typeof EXPLORE_MODELS)[number];

export interface Family {
  name: FamilyName;
  /** The resource of spec/schemas. */
  resource: string;
  create: string;
  replace: string;
  patch: string;
  /** One record read by {id} (application steps, ATS job offers). */
  get?: string;
  /** The list read filtered by a shared reference, where there is no read by {id} (jobboard activities). */
  list?: { operation: string; filter: string };
  /**
   * How {id} names a record: the numeric id the service assigns, learned when the record is created, or the
   * reference itself (ATS job offers, interpretation ATS_JOB_OFFER_ID; an id source maps it where declared).
   */
  addressedBy: 'id' | 'reference';
  /** The field unique to each record that no write changes (the {id} of an ATS job offer). */
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
};

/** The fields a family's writes carry, with whether a create or a PUT must carry them. */
export function writableFields(family: Family): (FieldInfo & { required: boolean })[] {
  const info = resourceInfo(family.resource);
  return info.fields.filter((f) => !family.apart.includes(f.name)).map((f) => ({ ...f, required: info.required.includes(f.name) }));
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
  const ids = [f.create, f.replace, f.patch, f.get, f.list?.operation, ...(model === 'ats-job-offers' ? ['listJobOffers', 'batchCreateJobOfferAttributes', 'patchJobOfferAttribute', 'deleteJobOfferAttribute'] : [])];
  return [...new Set(ids.filter((id): id is string => !!id).map((id) => operation(id).endpoint))].sort((a, b) => a - b);
}
