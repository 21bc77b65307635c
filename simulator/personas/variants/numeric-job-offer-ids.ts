import { errorReply } from '../../envelope.js';
import type { Store } from '../../store.js';
import type { Persona } from '../types.js';

const NUMBER = /^[1-9][0-9]{0,8}$/;

/** The number of the job offer with this reference: its place in creation order, from 1. */
export function numericJobOfferId(store: Store, reference: string): string | undefined {
  const at = store.jobOffers.values().findIndex((o) => o.reference === reference);
  return at < 0 ? undefined : String(at + 1);
}

export const numericJobOfferIds: Persona = {
  name: 'numeric-job-offer-ids',
  kind: 'variant',
  description: '{id} of an ATS job offer is a number the service assigns (its place in creation order), not its reference; responses still carry no id.',
  interprets: ['ATS_JOB_OFFER_ID'],
  declared: { atsJobOfferId: 'fixtures' },
  atsJobOfferId: numericJobOfferId,
  hooks: {
    beforeHandler(ctx) {
      const id = ctx.params['id'];
      const resource = ctx.operation?.resource;
      if (id === undefined || (resource !== 'job-offer' && resource !== 'job-offer-attribute')) return;
      // Creation order is the store's order; job offers are never deleted, so a position names one offer for good.
      const offer = NUMBER.test(id) ? ctx.store.jobOffers.values()[Number(id) - 1] : undefined;
      if (!offer) return errorReply('notFound', `No job offer with id ${JSON.stringify(id)}; {id} is the job offer's number.`);
      ctx.params['id'] = offer.reference;
    },
  },
};
