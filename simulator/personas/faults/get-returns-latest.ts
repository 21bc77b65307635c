import { dataReply } from '../../envelope.js';
import { isSuccess } from '../support.js';
import type { Persona } from '../types.js';

export const getReturnsLatest: Persona = {
  name: 'get-returns-latest',
  kind: 'fault',
  description: 'GET /ats/application-steps/{id} of an existing step answers the most recently created step, whatever {id} names.',
  breaks: ['WRITE.READ_BACK'],
  acrossCases: 'it answers the step created last by any case: one case at a time, only a case that creates two steps sees it; side by side, every case that reads a step back while another creates one does',
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.operationId !== 'getApplicationStep' || !isSuccess(res)) return;
      const all = ctx.store.applicationSteps.values();
      const latest = all[all.length - 1];
      if (latest) return dataReply('Application step found.', [latest]);
    },
  },
};
