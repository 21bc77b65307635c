// Endpoints 14 to 17: jobboard activities, by numeric id, listed with filters.
import type { RequestContext, SimResponse } from '../context.js';
import { dataReply } from '../envelope.js';
import type { JobboardActivityRecord } from '../store.js';
import { batchCreate, dateBound, listPage, listValues, notFound, noun, numericId, singleValue } from './common.js';

const ACTIVITY = noun('jobboard activity', 'jobboard activities');

export function batchCreateJobboardActivities(ctx: RequestContext): SimResponse {
  return batchCreate(ctx, ACTIVITY, (item) => ctx.store.jobboardActivities.insert((id) => ({ id, ...item }) as JobboardActivityRecord));
}

export function listJobboardActivities(ctx: RequestContext): SimResponse {
  const status = singleValue(ctx.query, 'status');
  return listPage(ctx, ctx.store.jobboardActivities, {
    eq: { job_offer_reference: listValues(ctx.query, 'job_offer_reference'), status: status === undefined ? [] : [status] },
    from: dateBound(ctx.query, 'min_date', 'min'),
    to: dateBound(ctx.query, 'max_date', 'max'),
  }, ACTIVITY);
}

function find(ctx: RequestContext): JobboardActivityRecord {
  const id = numericId(ctx, ACTIVITY);
  const activity = ctx.store.jobboardActivities.get(id);
  if (!activity) throw notFound(ACTIVITY, id);
  return activity;
}

export function replaceJobboardActivity(ctx: RequestContext): SimResponse {
  const id = find(ctx).id;
  const next = { id, ...(ctx.body as object) } as JobboardActivityRecord;
  ctx.store.jobboardActivities.replace(id, next);
  return dataReply('Jobboard activity replaced.', [next]);
}

export function patchJobboardActivity(ctx: RequestContext): SimResponse {
  const current = find(ctx);
  const next: JobboardActivityRecord = { ...current, ...(ctx.body as Partial<JobboardActivityRecord>), id: current.id };
  ctx.store.jobboardActivities.replace(current.id, next);
  return dataReply('Jobboard activity updated.', [next]);
}
