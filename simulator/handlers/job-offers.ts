// Endpoints 2 to 6: ATS job offers, whose {id} is their reference (interpretation ATS_JOB_OFFER_ID).
import type { JobOfferAttributeItem } from '../../src/data/types.js';
import type { RequestContext, SimResponse } from '../context.js';
import { SimError, dataReply } from '../envelope.js';
import type { JobOfferRecord } from '../store.js';
import { batchCreate, dateBound, listPage, listValues, noun, param } from './common.js';

const JOB_OFFER = noun('job offer');

/** Attribute names are unique within a job offer (interpretation ATTRIBUTE_NAME_CONFLICT). */
function attributeProblem(attributes: readonly JobOfferAttributeItem[] | null | undefined): string | undefined {
  const names = new Set<string>();
  for (const { name } of attributes ?? []) {
    if (names.has(name)) return `attributes: the name ${JSON.stringify(name)} appears twice`;
    names.add(name);
  }
  return undefined;
}

export function findJobOffer(ctx: RequestContext): JobOfferRecord {
  const reference = param(ctx, 'id');
  const offer = ctx.store.jobOffers.get(reference);
  if (!offer) throw new SimError('notFound', `No job offer with reference ${JSON.stringify(reference)}.`);
  return offer;
}

function store(ctx: RequestContext, reference: string, next: JobOfferRecord): void {
  const problem = attributeProblem(next.attributes);
  if (problem) throw new SimError('validation', 'The request body is not a valid job offer.', [problem]);
  const result = ctx.store.jobOffers.replace(reference, next);
  if (result === 'missing') throw new SimError('notFound', `No job offer with reference ${JSON.stringify(reference)}.`);
  if (result === 'conflict') {
    throw new SimError('conflict', `Another job offer already has the reference ${JSON.stringify(next.reference)}.`);
  }
}

export function batchCreateJobOffers(ctx: RequestContext): SimResponse {
  return batchCreate(ctx, JOB_OFFER, (item) => {
    const offer = item as unknown as JobOfferRecord;
    const problem = attributeProblem(offer.attributes);
    if (problem) return problem;
    return ctx.store.jobOffers.insert(() => offer) ?? `a job offer with the reference ${JSON.stringify(offer.reference)} already exists`;
  });
}

export function listJobOffers(ctx: RequestContext): SimResponse {
  return listPage(ctx, ctx.store.jobOffers, {
    eq: { reference: listValues(ctx.query, 'reference') },
    from: dateBound(ctx.query, 'min_publication_date', 'min'),
    to: dateBound(ctx.query, 'max_publication_date', 'max'),
  }, JOB_OFFER);
}

export function getJobOffer(ctx: RequestContext): SimResponse {
  return dataReply('Job offer found.', [findJobOffer(ctx)]);
}

export function replaceJobOffer(ctx: RequestContext): SimResponse {
  const next = ctx.body as JobOfferRecord;
  store(ctx, param(ctx, 'id'), next);
  return dataReply('Job offer replaced.', [next]);
}

export function patchJobOffer(ctx: RequestContext): SimResponse {
  const next: JobOfferRecord = { ...findJobOffer(ctx), ...(ctx.body as Partial<JobOfferRecord>) };
  store(ctx, param(ctx, 'id'), next);
  return dataReply('Job offer updated.', [next]);
}
