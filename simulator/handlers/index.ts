// One handler per operation of spec/openapi.yaml, by operationId; the server checks at start-up that every
// operation has one.
import type { Handler } from './common.js';
import { requestToken } from './token.js';
import { batchCreateJobOffers, getJobOffer, listJobOffers, patchJobOffer, replaceJobOffer } from './job-offers.js';
import { batchCreateJobOfferAttributes, deleteJobOfferAttribute, patchJobOfferAttribute } from './attributes.js';
import { batchCreateApplicationSteps, getApplicationStep, patchApplicationStep, replaceApplicationStep } from './application-steps.js';
import {
  batchCreateJobboardActivities, listJobboardActivities, patchJobboardActivity, replaceJobboardActivity,
} from './jobboard-activities.js';
import { batchCreateJobboardJobOffers, deleteJobboardJobOffer, patchJobboardJobOffer } from './jobboard-job-offers.js';
import { replaceUsers } from './users.js';

export type { Handler } from './common.js';

export const HANDLERS: Readonly<Record<string, Handler>> = {
  requestToken,
  batchCreateJobOffers,
  listJobOffers,
  getJobOffer,
  replaceJobOffer,
  patchJobOffer,
  batchCreateJobOfferAttributes,
  patchJobOfferAttribute,
  deleteJobOfferAttribute,
  batchCreateApplicationSteps,
  getApplicationStep,
  replaceApplicationStep,
  patchApplicationStep,
  batchCreateJobboardActivities,
  listJobboardActivities,
  replaceJobboardActivity,
  patchJobboardActivity,
  batchCreateJobboardJobOffers,
  patchJobboardJobOffer,
  deleteJobboardJobOffer,
  replaceUsers,
};
