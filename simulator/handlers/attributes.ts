// Endpoints 7 to 9: the attributes of an ATS job offer, kept inside the job offer record.
import type { JobOfferAttributeItem } from '../../src/data/types.js';
import type { RequestContext, SimResponse } from '../context.js';
import { SimError, dataReply, messageReply } from '../envelope.js';
import type { JobOfferRecord } from '../store.js';
import { batchCreate, noun, param } from './common.js';
import { findJobOffer } from './job-offers.js';

const ATTRIBUTE = noun('attribute');

function findAttribute(ctx: RequestContext): { offer: JobOfferRecord; attributes: JobOfferAttributeItem[]; index: number } {
  const offer = findJobOffer(ctx);
  const name = param(ctx, 'name');
  const attributes = offer.attributes ?? [];
  const index = attributes.findIndex((a) => a.name === name);
  if (index < 0) throw new SimError('notFound', `The job offer ${JSON.stringify(offer.reference)} has no attribute ${JSON.stringify(name)}.`);
  return { offer, attributes, index };
}

export function batchCreateJobOfferAttributes(ctx: RequestContext): SimResponse {
  const offer = findJobOffer(ctx);
  const existing = offer.attributes ?? [];
  const names = new Set(existing.map((a) => a.name));
  const added: JobOfferAttributeItem[] = [];
  const response = batchCreate(ctx, ATTRIBUTE, (item) => {
    const { name, value } = item as unknown as JobOfferAttributeItem;
    if (names.has(name)) return `the attribute ${JSON.stringify(name)} already exists on this job offer`;
    names.add(name);
    const attribute = { name, value };
    added.push(attribute);
    return attribute;
  });
  // One write for the whole batch, so a large batch stays linear.
  if (added.length > 0) ctx.store.jobOffers.replace(offer.reference, { ...offer, attributes: [...existing, ...added] });
  return response;
}

export function patchJobOfferAttribute(ctx: RequestContext): SimResponse {
  const { offer, attributes, index } = findAttribute(ctx);
  const { value } = ctx.body as { value: string };
  const next = attributes.map((a, i) => (i === index ? { name: a.name, value } : a));
  ctx.store.jobOffers.replace(offer.reference, { ...offer, attributes: next });
  return dataReply('Attribute updated.', [{ value }]);
}

export function deleteJobOfferAttribute(ctx: RequestContext): SimResponse {
  const { offer, attributes, index } = findAttribute(ctx);
  ctx.store.jobOffers.replace(offer.reference, { ...offer, attributes: attributes.filter((_, i) => i !== index) });
  return messageReply('Attribute deleted.');
}
