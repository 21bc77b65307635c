// Endpoints 18 to 20: jobboard job offers, by numeric id.
import { byIdHandlers } from './by-id.js';
import { noun } from './common.js';

const offers = byIdHandlers({ noun: noun('jobboard job offer'), title: 'Jobboard job offer', table: (ctx) => ctx.store.jobboardJobOffers });

export const batchCreateJobboardJobOffers = offers.batchCreate;
export const patchJobboardJobOffer = offers.patch;
export const deleteJobboardJobOffer = offers.remove;
