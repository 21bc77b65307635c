import type { Persona } from '../types.js';

export const nullEnvelopeMembers: Persona = {
  name: 'null-envelope-members',
  kind: 'variant',
  description: 'Every body carries the envelope members it has no use for as null: data: null beside errors, errors: null beside data.',
  interprets: ['NULL_ENVELOPE_MEMBER'],
  hooks: {
    afterHandler(_ctx, res) {
      const body = res.body;
      if (Array.isArray(body['errors']) && !('data' in body)) body['data'] = null;
      else if (Array.isArray(body['data']) && !('errors' in body)) body['errors'] = null;
    },
  },
};
