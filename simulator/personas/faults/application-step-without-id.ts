import { dataRecords, isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const applicationStepWithoutId: Persona = {
  name: 'application-step-without-id',
  kind: 'fault',
  description: 'GET and PUT of an application step answer the record without its id, which the spec says is present in responses of create, PUT and GET.',
  breaks: ['RECORD.APPLICATION_STEP_ID'],
  hooks: {
    afterHandler(ctx, res) {
      if (ctx.operation?.resource !== 'application-step' || !kindIs(ctx, 'get', 'replace') || !isSuccess(res)) return;
      for (const record of dataRecords(res)) delete record['id'];
    },
  },
};
