// The create items of each resource as TypeScript sees them. spec/schemas stays the authority on their shape:
// a test validates every factory's output against the schemas, so a drift between the two fails loudly.

/** One attribute of an ATS job offer. */
export interface JobOfferAttributeItem {
  name: string;
  value: string;
}

/** One item of POST /ats/job-offers (also the PUT body). */
export interface JobOfferItem {
  publication_at: string;
  title: string;
  reference: string;
  reference_2?: string | null;
  reference_3?: string | null;
  subsidiary?: string | null;
  subsidiary_ats_id?: string | null;
  description?: string | null;
  attributes?: JobOfferAttributeItem[] | null;
}

/** One item of POST /ats/application-steps (also the PUT body). */
export interface ApplicationStepItem {
  recorded_at: string;
  job_offer_reference: string;
  job_offer_reference_2?: string | null;
  job_offer_reference_3?: string | null;
  job_offer_title?: string | null;
  candidate_creation_date?: string | null;
  candidate_mail?: string | null;
  candidate_phone?: string | null;
  candidate_ats_id: string;
  source?: string | null;
  step: string;
  step_ats_id?: string | null;
  application_ats_id: string;
  subsidiary?: string | null;
  subsidiary_ats_id?: string | null;
}

/** One item of POST /jobboard/activities (also the PUT body). */
export interface JobboardActivityItem {
  recorded_at: string;
  job_offer_reference: string;
  job_offer_reference_2?: string | null;
  job_offer_reference_3?: string | null;
  job_offer_title?: string | null;
  status: string;
  subsidiary?: string | null;
  subsidiary_jobboard_id?: string | null;
  count: number;
}

/** One item of POST /jobboard/job-offers. */
export interface JobboardJobOfferItem {
  title?: string | null;
  reference: string;
  reference_2?: string | null;
  reference_3?: string | null;
  subsidiary?: string | null;
  subsidiary_jobboard_id?: string | null;
  description?: string | null;
}

/** One item of PUT /users. */
export interface UserItem {
  mail: string;
  first_name?: string | null;
  last_name?: string | null;
  subsidiary?: string | null;
  status?: string | null;
}

/**
 * What a caller may pass to a factory: any field, where `undefined` removes the field from the item and `null`
 * keeps an explicit null (the harness uses both to build negative cases).
 */
export type Overrides<T> = { [K in keyof T]?: T[K] | null | undefined };
