// Endpoints 10 to 13: ATS application steps, by numeric id.
import type { RequestContext, SimResponse } from '../context.js';
import { dataReply } from '../envelope.js';
import type { ApplicationStepRecord } from '../store.js';
import { batchCreate, notFound, noun, numericId } from './common.js';

const STEP = noun('application step');

export function batchCreateApplicationSteps(ctx: RequestContext): SimResponse {
  return batchCreate(ctx, STEP, (item) => ctx.store.applicationSteps.insert((id) => ({ id, ...item }) as ApplicationStepRecord));
}

function find(ctx: RequestContext): ApplicationStepRecord {
  const id = numericId(ctx, STEP);
  const step = ctx.store.applicationSteps.get(id);
  if (!step) throw notFound(STEP, id);
  return step;
}

export function getApplicationStep(ctx: RequestContext): SimResponse {
  return dataReply('Application step found.', [find(ctx)]);
}

export function replaceApplicationStep(ctx: RequestContext): SimResponse {
  const id = find(ctx).id;
  const next = { id, ...(ctx.body as object) } as ApplicationStepRecord;
  ctx.store.applicationSteps.replace(id, next);
  return dataReply('Application step replaced.', [next]);
}

export function patchApplicationStep(ctx: RequestContext): SimResponse {
  const current = find(ctx);
  const next: ApplicationStepRecord = { ...current, ...(ctx.body as Partial<ApplicationStepRecord>), id: current.id };
  ctx.store.applicationSteps.replace(current.id, next);
  return dataReply('Application step updated.', [next]);
}
