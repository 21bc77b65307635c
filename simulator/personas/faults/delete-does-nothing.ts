import { isSuccess, kindIs } from '../support.js';
import type { Persona } from '../types.js';

export const deleteDoesNothing: Persona = {
  name: 'delete-does-nothing',
  kind: 'fault',
  description: 'DELETE of an attribute or a jobboard job offer answers success but removes nothing.',
  breaks: ['DELETE.REMOVES'],
  hooks: {
    afterHandler(ctx, res) {
      if (kindIs(ctx, 'delete') && isSuccess(res)) ctx.rollback();
    },
  },
};
