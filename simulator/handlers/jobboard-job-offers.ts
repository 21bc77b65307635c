// Endpoints 18 to 20: jobboard job offers, by numeric id.
import type { RequestContext, SimResponse } from '../context.js';
import { dataReply, messageReply } from '../envelope.js';
import type { JobboardJobOfferRecord } from '../store.js';
import { batchCreate, notFound, noun, numericId } from './common.js';

const OFFER = noun('jobboard job offer');

export function batchCreateJobboardJobOffers(ctx: RequestContext): SimResponse {
  return batchCreate(ctx, OFFER, (item) => ctx.store.jobboardJobOffers.insert((id) => ({ id, ...item }) as JobboardJobOfferRecord));
}

export function patchJobboardJobOffer(ctx: RequestContext): SimResponse {
  const id = numericId(ctx, OFFER);
  const current = ctx.store.jobboardJobOffers.get(id);
  if (!current) throw notFound(OFFER, id);
  const next: JobboardJobOfferRecord = { ...current, ...(ctx.body as Partial<JobboardJobOfferRecord>), id };
  ctx.store.jobboardJobOffers.replace(id, next);
  return dataReply('Jobboard job offer updated.', [next]);
}

export function deleteJobboardJobOffer(ctx: RequestContext): SimResponse {
  const id = numericId(ctx, OFFER);
  if (!ctx.store.jobboardJobOffers.remove(id)) throw notFound(OFFER, id);
  return messageReply('Jobboard job offer deleted.');
}
