// Endpoints 14 to 17: jobboard activities, by numeric id, listed with filters.
import type { RequestContext, SimResponse } from '../context.js';
import { byIdHandlers } from './by-id.js';
import { dateBound, listPage, listValues, noun, singleValue } from './common.js';

const ACTIVITY = noun('jobboard activity', 'jobboard activities');
const activities = byIdHandlers({ noun: ACTIVITY, title: 'Jobboard activity', table: (ctx) => ctx.store.jobboardActivities });

export const batchCreateJobboardActivities = activities.batchCreate;
export const replaceJobboardActivity = activities.replace;
export const patchJobboardActivity = activities.patch;

export function listJobboardActivities(ctx: RequestContext): SimResponse {
  const status = singleValue(ctx.query, 'status');
  return listPage(ctx, ctx.store.jobboardActivities, {
    eq: { job_offer_reference: listValues(ctx.query, 'job_offer_reference'), status: status === undefined ? [] : [status] },
    from: dateBound(ctx.query, 'min_date', 'min'),
    to: dateBound(ctx.query, 'max_date', 'max'),
  }, ACTIVITY);
}
