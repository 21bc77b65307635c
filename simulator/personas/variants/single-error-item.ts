import type { Persona } from '../types.js';

export const singleErrorItem: Persona = {
  name: 'single-error-item',
  kind: 'variant',
  description: 'Every error body carries one error item summing up all problems, not one item per invalid batch item.',
  interprets: ['BATCH_ERROR_GRANULARITY'],
  hooks: {
    afterHandler(_ctx, res) {
      const errors = res.body['errors'];
      if (!Array.isArray(errors) || errors.length < 2) return;
      const messages = (errors as { message?: unknown }[]).map((e) => String(e.message));
      res.body['errors'] = [{ message: messages.join('; '), data: null }];
    },
  },
};
