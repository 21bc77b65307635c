import type { Persona } from '../types.js';

export const errorWithoutErrors: Persona = {
  name: 'error-without-errors',
  kind: 'fault',
  description: 'Failures of the protected endpoints answer {message} alone, without the errors array.',
  breaks: ['ENVELOPE.ERROR_BODY'],
  hooks: {
    // The token endpoint keeps its error body: there the same fault is AUTH.TOKEN_FAILURE, another persona's clause.
    afterHandler(ctx, res) {
      if (res.status >= 400 && ctx.operation?.kind !== 'token') delete res.body['errors'];
    },
  },
};
