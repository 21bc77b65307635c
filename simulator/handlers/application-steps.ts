// Endpoints 10 to 13: ATS application steps, by numeric id.
import { byIdHandlers } from './by-id.js';
import { noun } from './common.js';

const steps = byIdHandlers({ noun: noun('application step'), title: 'Application step', table: (ctx) => ctx.store.applicationSteps });

export const batchCreateApplicationSteps = steps.batchCreate;
export const getApplicationStep = steps.get;
export const replaceApplicationStep = steps.replace;
export const patchApplicationStep = steps.patch;
